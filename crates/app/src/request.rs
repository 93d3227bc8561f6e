//! Validated values of the operations' requests: a request field of such a type cannot hold
//! a value the operation would refuse, so neither the command line nor Python checks it
//! (each parses through [`std::str::FromStr`] or [`TryFrom`] and reports the error).

use std::str::FromStr;

/// A distance in metres: finite and at least 0 (an agent radius, a snap distance, a spacing).
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd, Default, serde::Serialize)]
#[serde(transparent)]
pub struct Distance(f32);

/// A number that is no [`Distance`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{given}: expected a distance >= 0")]
pub struct DistanceError {
    /// The value as given.
    pub given: String,
}

impl Distance {
    /// No distance.
    pub const ZERO: Distance = Distance(0.0);
    /// The default snap distance of a path query (1 m): how far a start or goal off the ground
    /// may be moved onto it.
    pub const DEFAULT_SNAP: Distance = Distance(areakit_geometry::nav::DEFAULT_SNAP);

    /// `metres`, when it is finite and at least 0.
    pub fn new(metres: f32) -> Result<Distance, DistanceError> {
        if metres.is_finite() && metres >= 0.0 {
            Ok(Distance(metres))
        } else {
            Err(DistanceError {
                given: metres.to_string(),
            })
        }
    }

    /// The distance in metres.
    pub const fn get(self) -> f32 {
        self.0
    }

    /// `metres` as the distance `what` of a request: a usage error naming `what` when it is
    /// none.
    pub fn named(what: &str, metres: f32) -> Result<Distance, crate::Error> {
        Distance::new(metres).map_err(|e| crate::Error::usage(format!("{what} {e}")))
    }
}

impl TryFrom<f32> for Distance {
    type Error = DistanceError;
    fn try_from(metres: f32) -> Result<Distance, DistanceError> {
        Distance::new(metres)
    }
}

impl FromStr for Distance {
    type Err = DistanceError;
    fn from_str(s: &str) -> Result<Distance, DistanceError> {
        let bad = || DistanceError {
            given: s.to_string(),
        };
        Distance::new(s.trim().parse::<f32>().map_err(|_| bad())?).map_err(|_| bad())
    }
}

impl std::fmt::Display for Distance {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances_are_finite_and_not_negative() {
        assert_eq!("0.35".parse::<Distance>().map(Distance::get), Ok(0.35));
        assert_eq!(Distance::new(0.0), Ok(Distance::ZERO));
        for bad in ["-1", "NaN", "inf", "x", ""] {
            let e = bad.parse::<Distance>().unwrap_err();
            assert_eq!(e.to_string(), format!("{bad}: expected a distance >= 0"));
        }
        assert!(Distance::new(f32::NAN).is_err());
        assert_eq!(
            Distance::named("radius", -0.5).unwrap_err().to_string(),
            "radius -0.5: expected a distance >= 0"
        );
    }
}
