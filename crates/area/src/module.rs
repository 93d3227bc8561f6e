//! A module as one area: the layout and room walkmeshes of an area plus the placeables and
//! doors its GIT stands in it, each with its walkmesh placed in area space, assembled from any
//! place that answers resource questions ([`Resources`]: a folder, a capsule, a game install).
//!
//! ```text
//! module.ifo ─► entry area ─► <area>.lyt, .vis, room .wok  (Area::from_resources)
//!                          ├► <area>.are, <area>.git
//!                          └► each GIT placeable: TemplateResRef ─► .utp ─► Appearance
//!                                 ─► placeables.2da `modelname` ─► <model>.pwk
//!                             each GIT door: TemplateResRef ─► .utd ─► GenericType
//!                                 ─► genericdoors.2da `modelname` ─► <model><state>.dwk
//! ```
//!
//! Objects are placed as [`crate::objects`] describes (seed `002`): a walkmesh's vertices
//! and use hooks are in the object's local space; area = translate(GIT position) ·
//! rotate(GIT `Bearing` about +Z) · local. A door's state is the GIT's `OpenState`, else the
//! UTD's, else closed.
//!
//! [`check`] gives the module's findings (codes in `docs/checks.md`):
//!
//! - `module-resource-unreadable` (error): the IFO, ARE, GIT or a 2DA the module needs does
//!   not decode;
//! - `object-template-missing`, `object-appearance-unknown`, `object-walkmesh-missing`,
//!   `object-position-missing` (warnings): an object the assembly could not place, with the
//!   cause in the message;
//! - `object-use-point-blocked` (warning): a use hook off the walkable ground or inside a
//!   placed object;
//! - `object-door-far-from-link` (warning): a door standing farther than
//!   [`DOOR_LINK_DISTANCE`] from every room link;
//! - `module-entry-off-ground` (error): the IFO's entry point stands on no walkable face of
//!   its area.

use areakit_formats::bwm;
use areakit_formats::gff;
use areakit_formats::gff::views::{Are, Git, Ifo, Utd, Utp};
use areakit_formats::twoda::{self, SurfaceMaterials, TwoDa};
use areakit_formats::{DecodeError, Finding, Place};
use areakit_geometry::nav::NavMesh;
use glam::Vec3;

use crate::area::{Area, AreaError};
use crate::navigation::{AreaNav, NavError, NavOptions, NavSource};
use crate::objects::{self, DoorState, ObjectKind, Orientation, PlacedObject, PlacedWalkmesh};
use crate::resources::Resources;

/// The resref of a module's information file (`module.ifo`).
pub const MODULE_IFO: &str = "module";

/// How far (metres, in plan) a door may stand from the nearest room link before
/// `object-door-far-from-link` is reported. Doors stand on the LYT's door hooks, which lie on
/// the rooms' shared edges; a metre allows for a door model whose origin is not on the edge.
pub const DOOR_LINK_DISTANCE: f32 = 1.0;

/// How far above or below the ground (metres) a use hook may stand and still be "on" it.
pub const USE_POINT_HEIGHT: f32 = 1.0;

/// A decoded resource and where it came from.
#[derive(Debug, Clone)]
pub struct Loaded<T> {
    /// The decoded value.
    pub value: T,
    /// Where it came from ([`crate::resources::Resource::origin`]).
    pub origin: String,
}

/// A placeable or door of the module's GIT.
#[derive(Debug, Clone)]
pub struct ModuleObject {
    /// The object as placed: `model` is the model name from the 2DA (the template's resref
    /// when it could not be resolved), `source` its GIT list and index
    /// (`Placeable List[3]`).
    pub object: PlacedObject,
    /// The GIT's `TemplateResRef`.
    pub template: Option<String>,
    /// Its walkmesh in area space, when every step resolved.
    pub walkmesh: Option<PlacedWalkmesh>,
    /// Where the walkmesh came from.
    pub walkmesh_origin: Option<String>,
    /// Whether creatures use it (placeables: the UTP's `Useable`; doors: always), so that its
    /// use hooks matter.
    pub useable: bool,
    /// A door leading to another module (`LinkedToModule` set): it stands at the area's
    /// edge, not on a room link.
    pub leads_out: bool,
}

/// An area assembled with its module's information and placed objects.
#[derive(Debug, Clone)]
pub struct Module {
    /// `module.ifo`, when the place holds one that decodes.
    pub ifo: Option<Loaded<Ifo>>,
    /// The area: layout, visibility, room walkmeshes.
    pub area: Area,
    /// `<area>.are`.
    pub are: Option<Loaded<Are>>,
    /// `<area>.git`.
    pub git: Option<Loaded<Git>>,
    /// The resources' `surfacemat.2da`, used for walkability instead of the stock table.
    pub surface_materials: Option<Loaded<SurfaceMaterials>>,
    /// Every GIT placeable, then every GIT door, in file order.
    pub objects: Vec<ModuleObject>,
    /// What the assembly found (resources that do not decode, objects not resolved).
    pub findings: Vec<Finding>,
}

/// Why a module could not be assembled.
#[derive(Debug, thiserror::Error)]
pub enum ModuleError {
    /// No area was named and the place has no `module.ifo` naming its entry area.
    #[error("{0}")]
    NoArea(String),
    /// The area's layout could not be opened.
    #[error(transparent)]
    Area(AreaError),
}

impl From<AreaError> for ModuleError {
    fn from(e: AreaError) -> Self {
        ModuleError::Area(e)
    }
}

/// What fetching and decoding one resource gave.
enum Fetched<T> {
    /// Not there.
    Missing,
    /// There, but unreadable or undecodable: where, and why.
    Bad(String, String),
    /// Decoded.
    Ok(Loaded<T>),
}

fn fetch<T>(
    res: &dyn Resources,
    resref: &str,
    ext: &str,
    decode: impl FnOnce(&[u8]) -> Result<T, DecodeError>,
) -> Fetched<T> {
    match res.get(resref, ext) {
        Ok(None) => Fetched::Missing,
        Err(e) => Fetched::Bad(format!("{resref}.{ext}"), e.to_string()),
        Ok(Some(r)) => match decode(&r.data) {
            Ok(value) => Fetched::Ok(Loaded {
                value,
                origin: r.origin,
            }),
            Err(e) => Fetched::Bad(r.origin, e.to_string()),
        },
    }
}

/// A resource of the module itself (IFO, ARE, GIT, 2DA): missing is `None`; one that does not
/// decode is a `module-resource-unreadable` error finding.
fn module_resource<T>(
    res: &dyn Resources,
    resref: &str,
    ext: &str,
    decode: impl FnOnce(&[u8]) -> Result<T, DecodeError>,
    findings: &mut Vec<Finding>,
) -> Option<Loaded<T>> {
    match fetch(res, resref, ext, decode) {
        Fetched::Missing => None,
        Fetched::Ok(l) => Some(l),
        Fetched::Bad(origin, why) => {
            findings.push(Finding::error(
                "module-resource-unreadable",
                Place::default().file(&origin),
                format!("{resref}.{ext} cannot be read: {why}"),
            ));
            None
        }
    }
}

fn text(t: &Option<gff::Text>) -> Option<String> {
    t.as_ref()
        .map(|t| t.to_str().trim().to_string())
        .filter(|s| !s.is_empty())
}

impl Module {
    /// Assembles a module from `res`: the area named `area`, or else the entry area of the
    /// place's `module.ifo`.
    pub fn assemble(res: &dyn Resources, area: Option<&str>) -> Result<Module, ModuleError> {
        let mut findings = Vec::new();
        let ifo = read_ifo(res, &mut findings);
        let name = match area {
            Some(a) => a.to_string(),
            None => match &ifo {
                Some(i) => text(&i.value.entry_area).ok_or_else(|| {
                    ModuleError::NoArea(format!("{}: no Mod_Entry_Area: name the area", i.origin))
                })?,
                None => {
                    return Err(ModuleError::NoArea(
                        "no module.ifo among the resources: name the area".to_string(),
                    ));
                }
            },
        };
        let area = Area::from_resources(res, &name)?;
        Ok(Module::around_with(res, area, ifo, findings))
    }

    /// The module around an area already opened (e.g. by [`Area::open`] from a folder, which
    /// also lists the folder's stray WOKs): its IFO, ARE, GIT and objects from `res`.
    pub fn around(res: &dyn Resources, area: Area) -> Module {
        let mut findings = Vec::new();
        let ifo = read_ifo(res, &mut findings);
        Module::around_with(res, area, ifo, findings)
    }

    fn around_with(
        res: &dyn Resources,
        area: Area,
        ifo: Option<Loaded<Ifo>>,
        mut findings: Vec<Finding>,
    ) -> Module {
        let name = area.resref.clone();
        let are = module_resource(
            res,
            &name,
            "are",
            |d| gff::read(d).map(|g| Are::from_gff(&g)),
            &mut findings,
        );
        let git = module_resource(
            res,
            &name,
            "git",
            |d| gff::read(d).map(|g| Git::from_gff(&g)),
            &mut findings,
        );
        let surface_materials = module_resource(
            res,
            "surfacemat",
            "2da",
            |d| twoda::read(d).map(|t| SurfaceMaterials::from_table(&t)),
            &mut findings,
        );
        let mut module = Module {
            ifo,
            area,
            are,
            git,
            surface_materials,
            objects: Vec::new(),
            findings,
        };
        if let Some(git) = module.git.take() {
            place_objects(res, &git, &mut module);
            module.git = Some(git);
        }
        module
    }

    /// The walkable ground of the area (walkable by the resources' `surfacemat.2da` when they
    /// hold one, else by the stock table).
    pub fn nav_source(&self) -> NavSource {
        NavSource::from_area_with(
            &self.area,
            self.surface_materials.as_ref().map(|m| &m.value),
        )
    }

    /// The navigation data the module's checks share: its ground ([`Module::nav_source`])
    /// with every placed object's walkmesh as a blocker, no radius.
    pub fn nav(&self) -> Result<AreaNav, NavError> {
        let placed: Vec<PlacedWalkmesh> = self
            .objects
            .iter()
            .filter_map(|o| o.walkmesh.clone())
            .collect();
        AreaNav::build(&self.nav_source(), &placed, &NavOptions::default())
    }

    /// The placed objects that have a walkmesh, with it: what `path` treats as blockers (the
    /// same list an `--objects` file gives).
    pub fn placed(&self) -> Vec<(PlacedObject, PlacedWalkmesh)> {
        self.objects
            .iter()
            .filter_map(|o| Some((o.object.clone(), o.walkmesh.clone()?)))
            .collect()
    }
}

fn read_ifo(res: &dyn Resources, findings: &mut Vec<Finding>) -> Option<Loaded<Ifo>> {
    module_resource(
        res,
        MODULE_IFO,
        "ifo",
        |d| gff::read(d).map(|g| Ifo::from_gff(&g)),
        findings,
    )
}

/// One object of the GIT on its way to a walkmesh.
struct Pending {
    kind: ObjectKind,
    list: &'static str,
    index: usize,
    template: Option<String>,
    tag: Option<String>,
    position: Option<[f32; 3]>,
    bearing: Option<f32>,
    git_state: Option<u8>,
    leads_out: bool,
}

/// A 2DA the objects need, fetched once.
struct Table {
    name: &'static str,
    table: Option<TwoDa>,
    /// Objects that needed it when it was missing.
    wanted_by: usize,
}

impl Table {
    fn load(res: &dyn Resources, name: &'static str, findings: &mut Vec<Finding>) -> Table {
        Table {
            name,
            table: module_resource(res, name, "2da", twoda::read, findings).map(|l| l.value),
            wanted_by: 0,
        }
    }
}

fn place_objects(res: &dyn Resources, git: &Loaded<Git>, module: &mut Module) {
    let findings = &mut module.findings;
    let mut placeables = Table::load(res, "placeables", findings);
    let mut doors = Table::load(res, "genericdoors", findings);
    let pending = git
        .value
        .placeables
        .iter()
        .enumerate()
        .map(|(i, p)| Pending {
            kind: ObjectKind::Placeable,
            list: "Placeable List",
            index: i,
            template: text(&p.template),
            tag: text(&p.tag),
            position: p.position,
            bearing: p.bearing,
            git_state: None,
            leads_out: false,
        })
        .chain(git.value.doors.iter().enumerate().map(|(i, d)| Pending {
            kind: ObjectKind::Door,
            list: "Door List",
            index: i,
            template: text(&d.template),
            tag: text(&d.tag),
            position: d.position,
            bearing: d.bearing,
            git_state: d.open_state,
            leads_out: text(&d.linked_to_module).is_some(),
        }));
    for p in pending {
        let table = match p.kind {
            ObjectKind::Placeable => &mut placeables,
            ObjectKind::Door => &mut doors,
        };
        if let Some(o) = resolve(res, &git.origin, p, table, findings) {
            module.objects.push(o);
        }
    }
    for t in [&placeables, &doors] {
        if t.table.is_none() && t.wanted_by > 0 {
            // A module relies on the game's tables (they live in its 2da.bif): without the
            // game, that is what is not known, not a fault of the module.
            findings.push(Finding::info(
                "object-appearance-unknown",
                Place::default().file(&git.origin),
                format!(
                    "{}.2da is not among the resources (the game keeps it; give --game to resolve them): the model (and walkmesh) of {} object(s) cannot be resolved",
                    t.name, t.wanted_by
                ),
            ));
        }
    }
}

/// Resolves one GIT instance: template → appearance → model → walkmesh, placed. Each step
/// that fails adds its finding; the object is kept (without a walkmesh) when it has a
/// position.
fn resolve(
    res: &dyn Resources,
    git_origin: &str,
    p: Pending,
    table: &mut Table,
    findings: &mut Vec<Finding>,
) -> Option<ModuleObject> {
    let item = format!("{}[{}]", p.list, p.index);
    let kind = p.kind.name();
    let mut place = Place::default().file(git_origin).item(&item);
    let Some(position) = p.position.filter(|v| v.iter().all(|x| x.is_finite())) else {
        findings.push(Finding::warning(
            "object-position-missing",
            place,
            format!("{kind} {item} has no finite X, Y, Z: it cannot be placed"),
        ));
        return None;
    };
    place = place.position(position);
    let bearing = p.bearing.filter(|b| b.is_finite()).unwrap_or(0.0);
    let mut object = ModuleObject {
        object: PlacedObject {
            kind: p.kind,
            model: p.template.clone().unwrap_or_default(),
            position,
            orientation: Orientation::Yaw(bearing),
            door_state: DoorState::Closed,
            tag: p.tag.clone(),
            source: item.clone(),
        },
        template: p.template.clone(),
        walkmesh: None,
        walkmesh_origin: None,
        useable: p.kind == ObjectKind::Door,
        leads_out: p.leads_out,
    };
    let template_ext = match p.kind {
        ObjectKind::Placeable => "utp",
        ObjectKind::Door => "utd",
    };
    let Some(template) = p.template.clone() else {
        findings.push(Finding::warning(
            "object-template-missing",
            place,
            format!("{kind} {item} has no TemplateResRef"),
        ));
        return Some(object);
    };
    let name = |o: &ModuleObject| {
        o.object.tag.clone().map_or_else(
            || format!("`{template}`"),
            |t| format!("`{t}` ({template})"),
        )
    };
    let what = format!("{kind} {}", name(&object));
    // Template → the 2DA row.
    let row = match p.kind {
        ObjectKind::Placeable => match fetch(res, &template, template_ext, |d| {
            gff::read(d).map(|g| Utp::from_gff(&g))
        }) {
            Fetched::Ok(u) => {
                object.useable = u.value.useable.unwrap_or(true);
                if object.object.tag.is_none() {
                    object.object.tag = text(&u.value.tag);
                }
                u.value
                    .appearance
                    .map(|a| a as usize)
                    .ok_or_else(|| format!("its template {} has no Appearance", u.origin))
            }
            other => {
                return template_finding(
                    other,
                    &what,
                    &template,
                    template_ext,
                    place,
                    findings,
                    object,
                );
            }
        },
        ObjectKind::Door => match fetch(res, &template, template_ext, |d| {
            gff::read(d).map(|g| Utd::from_gff(&g))
        }) {
            Fetched::Ok(u) => {
                if object.object.tag.is_none() {
                    object.object.tag = text(&u.value.tag);
                }
                let state = p.git_state.or(u.value.open_state).unwrap_or(0);
                object.object.door_state =
                    DoorState::from_digit(u64::from(state)).unwrap_or(DoorState::Closed);
                match (u.value.generic_type, u.value.appearance) {
                    (Some(g), _) => Ok(usize::from(g)),
                    (None, Some(a)) if a != 0 => Err(format!(
                        "its template {} names doortypes.2da row {a} (NWN), which areakit does not read",
                        u.origin
                    )),
                    _ => Err(format!("its template {} has no GenericType", u.origin)),
                }
            }
            other => {
                return template_finding(
                    other,
                    &what,
                    &template,
                    template_ext,
                    place,
                    findings,
                    object,
                );
            }
        },
    };
    let row = match row {
        Ok(r) => r,
        Err(why) => {
            findings.push(Finding::warning(
                "object-appearance-unknown",
                place,
                format!("{what}: {why}"),
            ));
            return Some(object);
        }
    };
    let Some(t) = &table.table else {
        table.wanted_by += 1;
        return Some(object);
    };
    let model = match p.kind {
        ObjectKind::Placeable => twoda::placeable_model(t, row),
        ObjectKind::Door => twoda::door_model(t, row),
    };
    let Some(model) = model.map(str::trim).filter(|m| !m.is_empty()) else {
        findings.push(Finding::warning(
            "object-appearance-unknown",
            place,
            format!(
                "{what}: {}.2da has no modelname in row {row} ({} rows)",
                table.name,
                t.rows.len()
            ),
        ));
        return Some(object);
    };
    object.object.model = model.to_string();
    attach_walkmesh(res, &mut object, &what, place, findings);
    Some(object)
}

/// Model → walkmesh: the object's PWK or DWK among the resources, placed; a finding when it
/// is missing or unreadable (the object then blocks nothing).
fn attach_walkmesh(
    res: &dyn Resources,
    object: &mut ModuleObject,
    what: &str,
    place: Place,
    findings: &mut Vec<Finding>,
) {
    let model = object.object.model.clone();
    let file = object.object.walkmesh_name();
    let (stem, ext) = file.rsplit_once('.').unwrap_or((&file, ""));
    match fetch(res, stem, ext, bwm::read) {
        Fetched::Ok(w) => {
            object.walkmesh = Some(objects::place(&object.object, &w.value));
            object.walkmesh_origin = Some(w.origin);
        }
        Fetched::Missing => findings.push(Finding::warning(
            "object-walkmesh-missing",
            place,
            format!("{what}: its walkmesh {file} (model `{model}`) is not among the resources: it blocks nothing"),
        )),
        Fetched::Bad(origin, why) => findings.push(Finding::warning(
            "object-walkmesh-missing",
            place,
            format!("{what}: its walkmesh {origin} cannot be read: {why}"),
        )),
    }
}

/// The finding of a template that is missing or unreadable; the object is kept unresolved.
fn template_finding<T>(
    fetched: Fetched<T>,
    what: &str,
    template: &str,
    ext: &str,
    place: Place,
    findings: &mut Vec<Finding>,
    object: ModuleObject,
) -> Option<ModuleObject> {
    let message = match fetched {
        Fetched::Bad(origin, why) => format!("{what}: its template {origin} cannot be read: {why}"),
        _ => format!("{what}: its template {template}.{ext} is not among the resources"),
    };
    findings.push(Finding::warning("object-template-missing", place, message));
    Some(object)
}

/// The module's own findings: the assembly's, then use points, doors and the entry point
/// (see the module docs). The area's own checks ([`crate::area::check`]) and the navigation
/// checks are not repeated here.
pub fn check(module: &Module) -> Vec<Finding> {
    // The navigation data is built only when there is something to stand on it.
    if module.objects.is_empty() && entry_point(module).is_none() {
        return module.findings.clone();
    }
    match module.nav() {
        Ok(nav) => check_on(module, &nav),
        Err(_) => module.findings.clone(),
    }
}

/// The IFO's entry point when it lies in this module's area: (area, position, IFO origin).
fn entry_point(module: &Module) -> Option<(String, [f32; 3], String)> {
    let ifo = module.ifo.as_ref()?;
    let area = text(&ifo.value.entry_area)?;
    let p = ifo.value.entry_position?;
    area.eq_ignore_ascii_case(&module.area.resref)
        .then(|| (area, p, ifo.origin.clone()))
}

/// [`check`] on the module's navigation data already built ([`Module::nav`]), so that one
/// build serves the module's, the navigation's and the path graph's checks.
pub fn check_on(module: &Module, nav: &AreaNav) -> Vec<Finding> {
    let mut out = module.findings.clone();
    let entry = entry_point(module);
    if module.objects.is_empty() && entry.is_none() {
        return out;
    }
    let git_file = module.git.as_ref().map(|g| g.origin.clone());
    for o in &module.objects {
        let mut place = Place::default()
            .item(&o.object.source)
            .position(o.object.position);
        if let Some(f) = &git_file {
            place = place.file(f);
        }
        let name = o
            .object
            .tag
            .as_deref()
            .unwrap_or(o.object.model.as_str())
            .to_string();
        if o.useable
            && let Some(w) = &o.walkmesh
        {
            for (k, &p) in w.use_points.iter().enumerate() {
                if !w.use_set[k] {
                    continue;
                }
                if let Some(mut why) = use_point_problem(nav, &module.objects, p) {
                    if why == OFF_GROUND {
                        let missing = rooms_without_ground(&module.area, p);
                        if !missing.is_empty() {
                            why = format!(
                                "{OFF_GROUND} present (rooms without a walkmesh here, nearest first: {}; the ground may be theirs)",
                                missing
                                    .iter()
                                    .map(|r| format!("`{r}`"))
                                    .collect::<Vec<_>>()
                                    .join(", ")
                            );
                        }
                    }
                    out.push(Finding::warning(
                        "object-use-point-blocked",
                        place.clone().position(p),
                        format!(
                            "{} `{name}`: use point {} at ({:.2}, {:.2}, {:.2}) {why}: a creature cannot stand there to use it",
                            o.object.kind.name(),
                            k + 1,
                            p[0],
                            p[1],
                            p[2]
                        ),
                    ));
                }
            }
        }
        if o.object.kind == ObjectKind::Door && !o.leads_out {
            let d = nearest_link(&module.area, o.object.position);
            let far = d.is_none_or(|d| d > DOOR_LINK_DISTANCE);
            if far {
                out.push(Finding::warning(
                    "object-door-far-from-link",
                    place.clone(),
                    match d {
                        Some(d) => format!(
                            "door `{name}` stands {d:.2} m from the nearest room link (more than {DOOR_LINK_DISTANCE} m): it closes no doorway between rooms"
                        ),
                        None => format!(
                            "door `{name}` leads to no other module, but the area has no room link for it to stand on"
                        ),
                    },
                ));
            }
        }
    }
    if let Some((area, p, origin)) = entry
        && nav.ground_mesh().locate(p[0], p[1], Some(p[2])).is_none()
    {
        let place = Place::default()
            .file(origin)
            .item("Mod_Entry_X")
            .position(p);
        let missing = rooms_without_ground(&module.area, p);
        if missing.is_empty() {
            out.push(Finding::error(
                "module-entry-off-ground",
                place,
                format!(
                    "the entry point ({:.2}, {:.2}, {:.2}) of area `{area}` stands on no walkable face: the player starts off the walkmesh",
                    p[0], p[1], p[2]
                ),
            ));
        } else {
            out.push(Finding::warning(
                "module-entry-ground-missing",
                place.room(&missing[0]),
                format!(
                    "the entry point ({:.2}, {:.2}, {:.2}) of area `{area}` stands on none of the room walkmeshes present; {} room(s) have no walkmesh here ({}; nearest by layout position: `{}`), so the ground under it cannot be checked (a patch capsule whose other rooms the game supplies?)",
                    p[0],
                    p[1],
                    p[2],
                    missing.len(),
                    missing.iter().map(|r| format!("`{r}`")).collect::<Vec<_>>().join(", "),
                    missing[0]
                ),
            ));
        }
    }
    out
}

/// The rooms of the layout whose walkmesh was not found (placeholders aside), nearest first
/// by the distance in plan from `p` to the room's layout position: the ground that may lie
/// under a point no present walkmesh holds.
pub fn rooms_without_ground(area: &Area, p: [f32; 3]) -> Vec<String> {
    let mut missing: Vec<(f32, &str)> = area
        .rooms
        .iter()
        .zip(&area.lyt.rooms)
        .filter(|(r, _)| !r.is_placeholder() && r.wok.is_none())
        .map(|(r, rec)| {
            let d = (rec.position[0] - p[0]).hypot(rec.position[1] - p[1]);
            (d, r.name.as_str())
        })
        .collect();
    missing.sort_by(|a, b| a.0.total_cmp(&b.0));
    missing.into_iter().map(|(_, n)| n.to_string()).collect()
}

/// The reason of a use point over no walkable face.
const OFF_GROUND: &str = "stands on no walkable face";

/// Why a use point is no place to stand: off the ground, or inside a placed object.
fn use_point_problem(nav: &AreaNav, objects: &[ModuleObject], p: [f32; 3]) -> Option<String> {
    let Some(h) = ground_height(nav.ground_mesh(), p) else {
        return Some(OFF_GROUND.to_string());
    };
    if ground_height(nav.mesh(), [p[0], p[1], h]).is_some() {
        return None;
    }
    let inside = objects.iter().find(|o| {
        o.walkmesh
            .as_ref()
            .is_some_and(|w| w.triangles.iter().any(|t| in_triangle_plan(t, p[0], p[1])))
    });
    Some(match inside {
        Some(o) => format!(
            "stands inside `{}` ({})",
            o.object.tag.as_deref().unwrap_or(&o.object.model),
            o.object.source
        ),
        None => "stands inside a placed object".to_string(),
    })
}

/// The height of the walkable face under `p` nearest its height, when that is within
/// [`USE_POINT_HEIGHT`] of it.
fn ground_height(mesh: &NavMesh, p: [f32; 3]) -> Option<f32> {
    mesh.locate(p[0], p[1], Some(p[2]))
        .map(|l| l.point.z)
        .filter(|h| (h - p[2]).abs() <= USE_POINT_HEIGHT)
}

fn in_triangle_plan(t: &[[f32; 3]; 3], x: f32, y: f32) -> bool {
    let c = |a: [f32; 3], b: [f32; 3]| (b[0] - a[0]) * (y - a[1]) - (b[1] - a[1]) * (x - a[0]);
    let (d0, d1, d2) = (c(t[0], t[1]), c(t[1], t[2]), c(t[2], t[0]));
    (d0 >= 0.0 && d1 >= 0.0 && d2 >= 0.0) || (d0 <= 0.0 && d1 <= 0.0 && d2 <= 0.0)
}

/// The plan distance from `p` to the nearest room link (a WOK edge with a transition) whose
/// height is within two metres of `p`; `None` when there is none.
pub fn nearest_link(area: &Area, p: [f32; 3]) -> Option<f32> {
    let q = Vec3::new(p[0], p[1], 0.0);
    area.links()
        .iter()
        .filter_map(|l| l.segment)
        .filter(|[a, b]| (a[2].min(b[2]) - 2.0..=a[2].max(b[2]) + 2.0).contains(&p[2]))
        .map(|[a, b]| {
            let (a, b) = (Vec3::new(a[0], a[1], 0.0), Vec3::new(b[0], b[1], 0.0));
            let d = b - a;
            let t = if d.length_squared() > 0.0 {
                ((q - a).dot(d) / d.length_squared()).clamp(0.0, 1.0)
            } else {
                0.0
            };
            (a + d * t - q).length()
        })
        .min_by(f32::total_cmp)
}

#[cfg(test)]
mod tests;
