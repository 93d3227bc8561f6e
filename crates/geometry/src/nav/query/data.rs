//! What a query reads: [`NavData`], the mesh and the acceleration data built from it, lent to
//! one query; and [`NavSet`], the same owned, for callers that keep them together.

use crate::nav::corners::CornerGraph;
use crate::nav::landmarks::Landmarks;
use crate::nav::mesh::NavMesh;
use crate::nav::poly::Polygons;
use crate::nav::search::result::PathError;
use crate::nav::surface::{Surface, SurfaceError};

/// The navigation data a query reads: the mesh, and the acceleration data built from it.
#[derive(Debug, Clone, Copy)]
pub struct NavData<'a> {
    /// The mesh.
    pub mesh: &'a NavMesh,
    /// Its polygons ([`Polygons::build`]).
    pub polygons: Option<&'a Polygons>,
    /// Its landmarks ([`Landmarks::build`]).
    pub landmarks: Option<&'a Landmarks>,
    /// Its corner graph ([`CornerGraph::build`]).
    pub graph: Option<&'a CornerGraph>,
}

impl<'a> NavData<'a> {
    /// The mesh alone.
    pub fn new(mesh: &'a NavMesh) -> Self {
        NavData {
            mesh,
            polygons: None,
            landmarks: None,
            graph: None,
        }
    }

    /// With the mesh's polygons.
    pub fn with_polygons(self, polygons: &'a Polygons) -> Self {
        NavData {
            polygons: Some(polygons),
            ..self
        }
    }

    /// With the mesh's landmarks.
    pub fn with_landmarks(self, landmarks: Option<&'a Landmarks>) -> Self {
        NavData { landmarks, ..self }
    }

    /// With the mesh's corner graph.
    pub fn with_graph(self, graph: Option<&'a CornerGraph>) -> Self {
        NavData { graph, ..self }
    }

    /// Whether every piece of acceleration data was built from this mesh
    /// ([`NavMesh::id`]); else [`PathError::Mismatch`] naming the first that was not.
    pub fn check(&self) -> Result<(), PathError> {
        let id = self.mesh.id();
        let ids = [
            ("the polygons", self.polygons.map(Polygons::mesh_id)),
            ("the landmarks", self.landmarks.map(Landmarks::mesh_id)),
            ("the corner graph", self.graph.map(CornerGraph::mesh_id)),
        ];
        match ids.into_iter().find(|(_, m)| m.is_some_and(|m| m != id)) {
            Some((what, _)) => Err(PathError::Mismatch { what }),
            None => Ok(()),
        }
    }
}

/// A mesh with the acceleration data built from it, owned: the polygons always, landmarks and
/// the corner graph when asked for. The mesh itself never changes; [`NavSet::data`] lends it
/// all to a query.
#[derive(Debug, Clone)]
pub struct NavSet {
    /// The mesh.
    pub mesh: NavMesh,
    /// Its polygons.
    pub polygons: Polygons,
    /// Its landmarks, if measured.
    pub landmarks: Option<Landmarks>,
    /// Its corner graph, if built.
    pub graph: Option<CornerGraph>,
}

impl NavSet {
    /// The mesh of `surface` and its polygons, made on a second thread while the mesh's
    /// islands, corners and grid are found ([`NavMesh::build_and`]).
    pub fn build(surface: &Surface) -> Result<NavSet, SurfaceError> {
        let (mesh, polygons) = NavMesh::build_and(surface, Polygons::build)?;
        Ok(NavSet {
            mesh,
            polygons,
            landmarks: None,
            graph: None,
        })
    }

    /// Measures `count` landmarks ([`Landmarks::build`]; 0 drops them).
    pub fn measure_landmarks(&mut self, count: usize) {
        self.landmarks = (count > 0)
            .then(|| Landmarks::build(&self.mesh, &self.polygons, count))
            .filter(|l| l.count() > 0);
    }

    /// Builds the corner graph, with the polygons' sight lists if `sights`
    /// ([`CornerGraph::build_with`]).
    pub fn build_corner_graph(&mut self, sights: bool) {
        self.graph = CornerGraph::build_with(&self.mesh, &self.polygons, sights);
    }

    /// Drops the corner graph.
    pub fn drop_corner_graph(&mut self) {
        self.graph = None;
    }

    /// Everything, lent to a query.
    pub fn data(&self) -> NavData<'_> {
        NavData::new(&self.mesh)
            .with_polygons(&self.polygons)
            .with_landmarks(self.landmarks.as_ref())
            .with_graph(self.graph.as_ref())
    }

    /// Bytes held (the arrays' capacities).
    pub fn memory_bytes(&self) -> usize {
        self.mesh.memory_bytes()
            + self.polygons.memory_bytes()
            + self.landmarks.as_ref().map_or(0, Landmarks::memory_bytes)
            + self.graph.as_ref().map_or(0, CornerGraph::memory_bytes)
    }
}

impl<'a> From<&'a NavSet> for NavData<'a> {
    fn from(s: &'a NavSet) -> Self {
        s.data()
    }
}
