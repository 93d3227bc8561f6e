// areakit view, 3-D: draws the data `src/view3d.rs` computed (room models with textures and
// lightmaps, placed objects, the walkmesh overlay with findings, paths) with three.js; orbit
// and walk cameras, the VIS inspector, picking, the 2-D map in a second tab. The page loads
// nothing: geometry and pictures are base64 chunks in the page, decoded one by one behind the
// progress bar. `window.areakitView3d` exposes state and timings for tests.
(() => {
  'use strict';
  const scriptStartMs = performance.now();
  const T = globalThis.THREE;
  const D = JSON.parse(document.getElementById('areakit-3d').textContent);
  const $ = (id) => document.getElementById(id);
  const stats = { scriptStartMs, dataMs: performance.now(), setupMs: 0, interactiveMs: null, readyMs: null, frames: 0, meshes: 0, textures: 0, lastFrameMs: 0 };
  const UP = new T.Vector3(0, 0, 1);

  // ---------------------------------------------------------------- chunks
  // Base64 to bytes: the browser's own decoder where it has one, else atob.
  function b64(s) {
    if (typeof Uint8Array.fromBase64 === 'function') return Uint8Array.fromBase64(s || '');
    const bin = atob(s || '');
    const out = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  }
  function chunkBytes(id) {
    const el = $(id);
    return b64(el ? el.textContent : '');
  }
  const nextFrame = () => new Promise((r) => requestAnimationFrame(() => r()));

  // ---------------------------------------------------------------- renderer and scene
  const canvas = $('canvas3d');
  const view = $('view');
  const renderer = new T.WebGLRenderer({ canvas, antialias: false, powerPreference: 'high-performance' });
  renderer.setPixelRatio(Math.min(window.devicePixelRatio || 1, 2));
  // Textures are multiplied in their stored (gamma) space, as the game's fixed pipeline does.
  renderer.outputColorSpace = T.LinearSRGBColorSpace;
  stats.rendererMs = performance.now();
  const scene = new T.Scene();
  scene.background = new T.Color().setRGB(0x20 / 255, 0x24 / 255, 0x28 / 255, T.LinearSRGBColorSpace);
  const camera = new T.PerspectiveCamera(60, 1, 0.05, 5000);
  camera.up.copy(UP);
  function addLights(to) {
    to.add(new T.HemisphereLight(0xffffff, 0x55504a, 1.6));
    const sun = new T.DirectionalLight(0xffffff, 1.2);
    sun.position.set(0.4, 0.6, 1.0);
    to.add(sun);
  }
  addLights(scene);
  // Shaders compile in the GPU process while the page decodes its meshes: three does not ask
  // for their status (which would wait for them) unless it must.
  renderer.debug.checkShaderErrors = false;

  const groups = {
    models: new T.Group(), objects: new T.Group(), walkmesh: new T.Group(),
    findings: new T.Group(), paths: new T.Group(),
  };
  for (const g of Object.values(groups)) scene.add(g);
  const layers = { models: true, textures: true, lightmaps: true, objects: true, walkmesh: false, findings: true, paths: true };

  let dirty = true;
  function requestRender() { dirty = true; }
  function renderNow() {
    const t = performance.now();
    renderer.render(scene, camera);
    stats.frames++;
    stats.lastFrameMs = performance.now() - t;
    dirty = false;
    return { ms: stats.lastFrameMs, triangles: renderer.info.render.triangles, calls: renderer.info.render.calls };
  }
  function resize() {
    const w = view.clientWidth || 1, h = view.clientHeight || 1;
    renderer.setSize(w, h, false);
    camera.aspect = w / h;
    camera.updateProjectionMatrix();
    requestRender();
  }
  window.addEventListener('resize', resize);

  // ---------------------------------------------------------------- materials and textures
  // Every material that will have a texture gets a white placeholder from the start, so its
  // shader is compiled once: a picture arriving (or a layer switched) only swaps the image.
  const white = (channel) => {
    const t = new T.DataTexture(new Uint8Array([255, 255, 255, 255]), 1, 1);
    t.channel = channel;
    t.needsUpdate = true;
    return t;
  };
  const WHITE = [white(0), white(1)];
  const materials = D.materials.map((m) => {
    const lit = m.lightmap !== null && m.lightmap !== undefined;
    // Back faces culled, as the game draws them (counter-clockwise faces face the viewer):
    // seen from above, a room's ceiling turns its back and the room is open to the view.
    const opts = { side: T.FrontSide };
    const mat = lit ? new T.MeshBasicMaterial(opts) : new T.MeshLambertMaterial(opts);
    mat.color.setRGB(m.colour[0], m.colour[1], m.colour[2]);
    if (m.alpha === 'mask') {
      mat.alphaTest = 0.5;
    } else if (m.alpha === 'blend' || m.alpha === 'additive') {
      mat.transparent = true;
      mat.depthWrite = false;
      if (m.alpha === 'additive') mat.blending = T.AdditiveBlending;
    }
    if (m.diffuse !== null && m.diffuse !== undefined) mat.map = WHITE[0];
    if (lit) {
      mat.lightMap = WHITE[1];
      mat.lightMapIntensity = Math.PI; // three divides a lightmap by pi
    }
    mat.name = m.name;
    mat.userData = { spec: m, map: null, lightMap: null };
    return mat;
  });
  // Every material's shader, started now (a stand-in triangle per material, the same lights).
  (() => {
    const proxy = new T.Scene();
    addLights(proxy);
    const tri = new T.BufferGeometry();
    const three = (n) => new T.BufferAttribute(new Float32Array(3 * n), n);
    tri.setAttribute('position', three(3));
    tri.setAttribute('normal', three(3));
    tri.setAttribute('uv', three(2));
    tri.setAttribute('uv1', three(2));
    for (const m of materials) proxy.add(new T.Mesh(tri, m));
    renderer.compile(proxy, camera);
  })();
  stats.materialsMs = performance.now();
  const usersOf = D.textures.map(() => []);
  D.materials.forEach((m, i) => {
    if (m.diffuse !== null && m.diffuse !== undefined) usersOf[m.diffuse].push([i, 'map']);
    if (m.lightmap !== null && m.lightmap !== undefined) usersOf[m.lightmap].push([i, 'lightMap']);
  });
  function makeTexture(bitmap, channel) {
    const t = new T.Texture(bitmap);
    t.flipY = false; // the first stored row is at v = 0, as the game's UVs expect
    t.wrapS = t.wrapT = T.RepeatWrapping;
    t.colorSpace = T.NoColorSpace;
    t.minFilter = T.LinearMipmapLinearFilter;
    t.magFilter = T.LinearFilter;
    t.channel = channel;
    t.needsUpdate = true;
    return t;
  }
  // The pictures a material shows under the layers: its own when loaded and switched on,
  // else the white placeholder (and its flat colour in place of a diffuse texture).
  function applyMaps(mat) {
    const u = mat.userData;
    if (mat.map) {
      const own = layers.textures && u.map;
      mat.map = own || WHITE[0];
      const c = u.spec.colour;
      if (own) mat.color.setRGB(1, 1, 1); else mat.color.setRGB(c[0], c[1], c[2]);
    }
    if (mat.lightMap) mat.lightMap = (layers.lightmaps && u.lightMap) || WHITE[1];
  }
  async function loadTexture(i) {
    const bytes = chunkBytes(D.textures[i].chunk);
    const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
    for (const [mi, slot] of usersOf[i]) {
      const mat = materials[mi];
      mat.userData[slot] = makeTexture(bitmap, slot === 'lightMap' ? 1 : 0);
      applyMaps(mat);
    }
    stats.textures++;
  }

  // ---------------------------------------------------------------- meshes
  const roomMeshes = D.rooms.map(() => []);
  const pickable = [];
  function addMesh(md) {
    const bytes = chunkBytes(md.chunk);
    const buf = bytes.buffer;
    let off = 0;
    const take = (n, Kind) => { const a = new Kind(buf, off, n); off += n * Kind.BYTES_PER_ELEMENT; return a; };
    const n = md.vertices;
    const g = new T.BufferGeometry();
    g.setAttribute('position', new T.BufferAttribute(take(n * 3, Float32Array), 3));
    if (md.normals) g.setAttribute('normal', new T.BufferAttribute(take(n * 3, Float32Array), 3));
    if (md.uv) g.setAttribute('uv', new T.BufferAttribute(take(n * 2, Float32Array), 2));
    if (md.uv2) g.setAttribute('uv1', new T.BufferAttribute(take(n * 2, Float32Array), 2));
    g.setIndex(new T.BufferAttribute(take(md.indices, Uint32Array), 1));
    if (!md.normals) g.computeVertexNormals();
    const mats = [];
    for (const [mi, start, count] of md.groups) {
      g.addGroup(start, count, mats.length);
      mats.push(materials[mi]);
    }
    g.computeBoundingSphere();
    const mesh = new T.Mesh(g, mats);
    mesh.name = md.name;
    mesh.userData = { room: md.room, object: md.object };
    if (md.object !== null && md.object !== undefined) groups.objects.add(mesh);
    else groups.models.add(mesh);
    if (md.room !== null && md.room !== undefined && roomMeshes[md.room]) roomMeshes[md.room].push(mesh);
    pickable.push(mesh);
    stats.meshes++;
  }

  // ---------------------------------------------------------------- objects without models
  function addObjectBoxes() {
    D.objects.forEach((o, i) => {
      if (o.model_found) return;
      const [lo, hi] = o.box;
      const size = [hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]].map((v) => Math.max(v, 0.05));
      const geo = new T.BoxGeometry(size[0], size[1], size[2]);
      const colour = o.kind === 'door' ? 0xc08040 : 0x9050c0;
      const mesh = new T.Mesh(geo, new T.MeshLambertMaterial({ color: colour, transparent: true, opacity: 0.7 }));
      mesh.position.set((lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, (lo[2] + hi[2]) / 2);
      mesh.name = `${o.kind} ${o.label}`;
      mesh.userData = { objectBox: i };
      const edges = new T.LineSegments(new T.EdgesGeometry(geo), new T.LineBasicMaterial({ color: 0xffffff }));
      mesh.add(edges);
      groups.objects.add(mesh);
      pickable.push(mesh);
    });
  }

  // ---------------------------------------------------------------- walkmesh overlay and height query
  const walk = { vertices: null, faces: null, material: null, walkable: null, rooms: [], grid: [] };
  function setupWalkmesh() {
    const W = D.walkmesh;
    if (!W) return;
    const vb = b64(W.vertices), fb = b64(W.faces), mb = b64(W.face_material);
    walk.vertices = new Float32Array(vb.buffer);
    walk.faces = new Int32Array(fb.buffer);
    walk.material = new Uint16Array(mb.buffer);
    walk.walkable = W.materials.map((m) => m.walkable);
    const nf = W.face_count;
    const pos = new Float32Array(nf * 9), col = new Float32Array(nf * 9);
    const V = walk.vertices, F = walk.faces;
    for (let f = 0; f < nf; f++) {
      const m = W.materials[walk.material[f]];
      const c = m.walkable ? m.colour : [70, 70, 70];
      for (let k = 0; k < 3; k++) {
        const v = F[f * 3 + k];
        if (v < 0) continue;
        for (let a = 0; a < 3; a++) pos[f * 9 + k * 3 + a] = V[v * 3 + a] + (a === 2 ? 0.02 : 0);
        for (let a = 0; a < 3; a++) col[f * 9 + k * 3 + a] = c[a] / 255;
      }
    }
    const g = new T.BufferGeometry();
    g.setAttribute('position', new T.BufferAttribute(pos, 3));
    g.setAttribute('color', new T.BufferAttribute(col, 3));
    const mat = new T.MeshBasicMaterial({ vertexColors: true, transparent: true, opacity: 0.55, side: T.DoubleSide, depthWrite: false, polygonOffset: true, polygonOffsetFactor: -2, polygonOffsetUnits: -4 });
    const mesh = new T.Mesh(g, mat);
    mesh.name = 'walkmesh';
    mesh.userData = { walkmesh: true };
    groups.walkmesh.add(mesh);
    const wire = new T.LineSegments(new T.WireframeGeometry(g), new T.LineBasicMaterial({ color: 0x000000, transparent: true, opacity: 0.25 }));
    groups.walkmesh.add(wire);
    // A grid per room over the faces' plan boxes (2 m cells), for the height query.
    for (const r of W.rooms) {
      const room = { name: r.name, start: r.face_start, count: r.face_count, cells: new Map(), size: 2 };
      for (let f = r.face_start; f < r.face_start + r.face_count; f++) {
        const b = faceBox(f);
        if (!b) continue;
        for (let gx = Math.floor(b[0] / room.size); gx <= Math.floor(b[1] / room.size); gx++) {
          for (let gy = Math.floor(b[2] / room.size); gy <= Math.floor(b[3] / room.size); gy++) {
            const key = gx + ',' + gy;
            if (!room.cells.has(key)) room.cells.set(key, []);
            room.cells.get(key).push(f);
          }
        }
      }
      walk.rooms.push(room);
    }
  }
  function faceBox(f) {
    const V = walk.vertices, F = walk.faces;
    const a = F[f * 3], b = F[f * 3 + 1], c = F[f * 3 + 2];
    if (a < 0 || b < 0 || c < 0) return null;
    const xs = [V[a * 3], V[b * 3], V[c * 3]], ys = [V[a * 3 + 1], V[b * 3 + 1], V[c * 3 + 1]];
    return [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  }
  // The height of face f at (x, y) if it contains the point seen from above: the same test
  // and arithmetic as the library's point query (f64 barycentric weights, result in f32).
  function faceHeight(f, x, y) {
    const V = walk.vertices, F = walk.faces;
    const ia = F[f * 3], ib = F[f * 3 + 1], ic = F[f * 3 + 2];
    if (ia < 0 || ib < 0 || ic < 0) return null;
    const ax = V[ia * 3], ay = V[ia * 3 + 1], az = V[ia * 3 + 2];
    const bx = V[ib * 3], by = V[ib * 3 + 1], bz = V[ib * 3 + 2];
    const cx = V[ic * 3], cy = V[ic * 3 + 1], cz = V[ic * 3 + 2];
    if (x < Math.min(ax, bx, cx) || x > Math.max(ax, bx, cx) || y < Math.min(ay, by, cy) || y > Math.max(ay, by, cy)) return null;
    const area = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
    if (area === 0) return null;
    const wa = (bx - x) * (cy - y) - (by - y) * (cx - x);
    const wb = (cx - x) * (ay - y) - (cy - y) * (ax - x);
    const wc = (ax - x) * (by - y) - (ay - y) * (bx - x);
    const inside = area > 0 ? (wa >= 0 && wb >= 0 && wc >= 0) : (wa <= 0 && wb <= 0 && wc <= 0);
    if (!inside) return null;
    return Math.fround((wa * az + wb * bz + wc * cz) / area);
  }
  // `areakit query --at X,Y [--z Z]` over the area: walkable faces win; then, with a hint, the
  // face nearest to it in height, else the highest; ties to the lowest face index within a room
  // and to the earlier room across rooms. Returns {room, face, z, walkable} or null.
  function heightAt(x, y, hint, walkableOnly) {
    if (!walk.vertices) return null;
    x = Math.fround(x); y = Math.fround(y);
    const h = hint === null || hint === undefined ? null : Math.fround(hint);
    const score = (z) => {
      if (h === null) return -z;
      const s = Math.fround(Math.abs(Math.fround(z - h)));
      return Number.isNaN(s) ? Infinity : s;
    };
    let best = null;
    for (const room of walk.rooms) {
      const list = room.cells.get(Math.floor(x / room.size) + ',' + Math.floor(y / room.size));
      if (!list) continue;
      let rb = null;
      for (const f of list) {
        const w = walk.walkable[walk.material[f]];
        if (walkableOnly && !w) continue;
        const z = faceHeight(f, x, y);
        if (z === null) continue;
        const k = [w ? 0 : 1, score(z), f - room.start];
        if (!rb || k[0] < rb.k[0] || (k[0] === rb.k[0] && (k[1] < rb.k[1] || (k[1] === rb.k[1] && k[2] < rb.k[2])))) {
          rb = { k, room: room.name, face: f - room.start, z, walkable: w };
        }
      }
      if (rb && (!best || rb.k[0] < best.k[0] || (rb.k[0] === best.k[0] && rb.k[1] < best.k[1]))) best = rb;
    }
    return best && { room: best.room, face: best.face, z: best.z, walkable: best.walkable };
  }

  // ---------------------------------------------------------------- findings and paths
  const severityColour = { error: 0xe02020, warning: 0xb040d0, info: 0x909090 };
  function setupFindings() {
    const list = $('findings');
    $('findings-title').textContent = `Findings (${D.findings.length})`;
    for (const f of D.findings) {
      const li = document.createElement('li');
      li.className = f.severity;
      li.textContent = `${f.severity} ${f.code}${f.room ? ' [' + f.room + ']' : ''}: ${f.message}`;
      if (f.position) {
        const m = new T.Mesh(new T.OctahedronGeometry(0.25), new T.MeshBasicMaterial({ color: severityColour[f.severity] || 0x909090, depthTest: false }));
        m.position.set(f.position[0], f.position[1], f.position[2] + 0.4);
        m.renderOrder = 10;
        groups.findings.add(m);
        li.addEventListener('click', () => { lookAt(new T.Vector3(...f.position), 6); });
      }
      list.appendChild(li);
    }
    for (const p of D.paths) {
      const pts = p.map((q) => new T.Vector3(q[0], q[1], q[2] + 0.1));
      if (pts.length < 2) continue;
      const line = new T.Line(new T.BufferGeometry().setFromPoints(pts), new T.LineBasicMaterial({ color: 0x3080ff, depthTest: false }));
      line.renderOrder = 11;
      groups.paths.add(line);
    }
  }

  // ---------------------------------------------------------------- cameras
  const orbit = { target: new T.Vector3(), radius: 20, theta: -Math.PI / 2, phi: 0.9 };
  const walker = { x: 0, y: 0, z: 0, yaw: 0, pitch: -0.1, keys: new Set(), last: 0 };
  let mode = 'orbit';
  function bounds() {
    const b = D.bounds;
    if (!b) return { c: new T.Vector3(), r: 10 };
    const lo = new T.Vector3(...b.min), hi = new T.Vector3(...b.max);
    return { c: lo.clone().add(hi).multiplyScalar(0.5), r: Math.max(lo.distanceTo(hi) / 2, 1) };
  }
  function placeOrbit() {
    const o = orbit;
    const sp = Math.sin(o.phi), cp = Math.cos(o.phi);
    camera.position.set(o.target.x + o.radius * sp * Math.cos(o.theta), o.target.y + o.radius * sp * Math.sin(o.theta), o.target.z + o.radius * cp);
    camera.lookAt(o.target);
    camera.near = Math.max(0.05, o.radius / 2000);
    camera.far = Math.max(1000, o.radius * 20);
    camera.updateProjectionMatrix();
  }
  function placeWalker() {
    const eye = D.eye_height || 1.7;
    camera.position.set(walker.x, walker.y, walker.z + eye);
    const d = new T.Vector3(Math.cos(walker.pitch) * Math.cos(walker.yaw), Math.cos(walker.pitch) * Math.sin(walker.yaw), Math.sin(walker.pitch));
    camera.lookAt(camera.position.clone().add(d));
    camera.near = 0.05;
    camera.far = 2000;
    camera.updateProjectionMatrix();
  }
  function place() { if (mode === 'orbit') placeOrbit(); else placeWalker(); followVis(); requestRender(); }
  function fit() {
    const { c, r } = bounds();
    orbit.target.copy(c);
    orbit.phi = 0.85;
    orbit.theta = -Math.PI / 2 + 0.35;
    if (mode !== 'orbit') setMode('orbit');
    // Nearest distance, then the target moved to the middle of what is seen, three times: the
    // far side of an area looks smaller than the near side, so its box's centre is off-centre.
    const right = new T.Vector3(), up = new T.Vector3(), q = new T.Vector3();
    for (let pass = 0; pass < 3; pass++) {
      orbit.radius = fitRadius(r);
      placeOrbit();
      camera.updateMatrixWorld();
      let x0 = Infinity, x1 = -Infinity, y0 = Infinity, y1 = -Infinity;
      for (const p of fitCorners()) {
        q.copy(p).project(camera);
        x0 = Math.min(x0, q.x); x1 = Math.max(x1, q.x); y0 = Math.min(y0, q.y); y1 = Math.max(y1, q.y);
      }
      if (!Number.isFinite(x0)) break;
      const h = orbit.radius * Math.tan((camera.fov * Math.PI) / 360);
      right.setFromMatrixColumn(camera.matrixWorld, 0);
      up.setFromMatrixColumn(camera.matrixWorld, 1);
      orbit.target.addScaledVector(right, ((x0 + x1) / 2) * h * camera.aspect).addScaledVector(up, ((y0 + y1) / 2) * h);
    }
    orbit.radius = fitRadius(r);
    place();
  }
  // The corners of every mesh's box (else of the bounds): what a fit keeps in view.
  function fitCorners() {
    const boxes = D.meshes.filter((m) => m.box).map((m) => ({ min: m.box[0], max: m.box[1] }));
    if (!boxes.length && D.bounds) boxes.push(D.bounds);
    const corners = [];
    for (const b of boxes) {
      for (let i = 0; i < 8; i++) {
        corners.push(new T.Vector3(i & 1 ? b.max[0] : b.min[0], i & 2 ? b.max[1] : b.min[1], i & 4 ? b.max[2] : b.min[2]));
      }
    }
    return corners;
  }
  // The nearest orbit distance (to 0.1 %) from which every fit corner is in view with a small
  // margin: a bisection, since corners only move inwards as the camera backs away.
  function fitRadius(r) {
    const corners = fitCorners();
    if (!corners.length) return r * 1.3;
    const q = new T.Vector3();
    const inView = (radius) => {
      orbit.radius = radius;
      placeOrbit();
      camera.updateMatrixWorld();
      return corners.every((p) => {
        if (q.copy(p).applyMatrix4(camera.matrixWorldInverse).z > -camera.near) return false;
        q.copy(p).project(camera);
        return Math.abs(q.x) <= 0.94 && Math.abs(q.y) <= 0.94;
      });
    };
    let lo = 0, hi = r * 1.3;
    while (!inView(hi) && hi < r * 100) hi *= 2;
    for (let i = 0; i < 12; i++) {
      const mid = (lo + hi) / 2;
      if (inView(mid)) hi = mid; else lo = mid;
    }
    return hi;
  }
  function lookAt(p, dist) {
    if (mode !== 'orbit') setMode('orbit');
    orbit.target.copy(p);
    orbit.radius = dist;
    place();
  }
  // The walker starts on the ground under the orbit target, else on the first walkable face.
  function startWalker() {
    let hit = heightAt(orbit.target.x, orbit.target.y, null, true);
    let x = orbit.target.x, y = orbit.target.y;
    if (!hit && walk.vertices) {
      const F = walk.faces, V = walk.vertices;
      for (let f = 0; f * 3 < F.length && !hit; f++) {
        if (!walk.walkable[walk.material[f]] || F[f * 3] < 0) continue;
        x = (V[F[f * 3] * 3] + V[F[f * 3 + 1] * 3] + V[F[f * 3 + 2] * 3]) / 3;
        y = (V[F[f * 3] * 3 + 1] + V[F[f * 3 + 1] * 3 + 1] + V[F[f * 3 + 2] * 3 + 1]) / 3;
        hit = heightAt(x, y, null, true);
      }
    }
    if (!hit) return false;
    Object.assign(walker, { x, y, z: hit.z, yaw: orbit.theta + Math.PI });
    return true;
  }
  function setMode(m) {
    if (m === 'walk' && !startWalker()) {
      m = 'orbit';
      $('hud').textContent = 'no walkable ground to walk on';
    }
    mode = m;
    $('camera-' + m).checked = true;
    place();
  }
  // One step of the walker: the move is taken where the ground (walkable, by the height
  // query with the walker's height as the hint) goes on within a step's height; else along
  // one axis; else not at all.
  const STEP = 0.6;
  function tryMove(dx, dy) {
    for (const [mx, my] of [[dx, dy], [dx, 0], [0, dy]]) {
      if (mx === 0 && my === 0) continue;
      const hit = heightAt(walker.x + mx, walker.y + my, walker.z, true);
      if (hit && Math.abs(hit.z - walker.z) <= STEP) {
        walker.x += mx; walker.y += my; walker.z = hit.z;
        return true;
      }
    }
    return false;
  }
  function walkTick(now) {
    if (mode !== 'walk' || walker.keys.size === 0) { walker.last = now; return; }
    const dt = Math.min(0.1, (now - (walker.last || now)) / 1000);
    walker.last = now;
    const k = walker.keys;
    const speed = (k.has('Shift') ? 9 : 3.5) * dt;
    let f = 0, s = 0;
    if (k.has('w') || k.has('ArrowUp')) f += 1;
    if (k.has('s') || k.has('ArrowDown')) f -= 1;
    if (k.has('a') || k.has('ArrowLeft')) s += 1;
    if (k.has('d') || k.has('ArrowRight')) s -= 1;
    if (f || s) {
      const c = Math.cos(walker.yaw), sn = Math.sin(walker.yaw);
      tryMove((f * c - s * sn) * speed, (f * sn + s * c) * speed);
      place();
    }
  }

  // ---------------------------------------------------------------- input
  let drag = null;
  view.addEventListener('contextmenu', (e) => e.preventDefault());
  view.addEventListener('pointerdown', (e) => {
    view.focus();
    drag = { x: e.clientX, y: e.clientY, sx: e.clientX, sy: e.clientY, pan: e.button === 2 || e.shiftKey, moved: false };
    view.setPointerCapture(e.pointerId);
  });
  view.addEventListener('pointermove', (e) => {
    if (!drag) return;
    const dx = e.clientX - drag.x, dy = e.clientY - drag.y;
    drag.x = e.clientX; drag.y = e.clientY;
    if (Math.abs(e.clientX - drag.sx) + Math.abs(e.clientY - drag.sy) > 3) drag.moved = true;
    if (mode === 'walk') {
      walker.yaw -= dx * 0.005;
      walker.pitch = Math.max(-1.4, Math.min(1.4, walker.pitch - dy * 0.005));
    } else if (drag.pan) {
      const scale = orbit.radius * 0.0015;
      const right = new T.Vector3().setFromMatrixColumn(camera.matrixWorld, 0);
      const fwd = new T.Vector3().crossVectors(UP, right).normalize();
      orbit.target.addScaledVector(right, -dx * scale).addScaledVector(fwd, dy * scale);
    } else {
      orbit.theta -= dx * 0.006;
      orbit.phi = Math.max(0.05, Math.min(Math.PI - 0.05, orbit.phi - dy * 0.006));
    }
    place();
  });
  view.addEventListener('pointerup', (e) => {
    if (drag && !drag.moved) pick(e.clientX, e.clientY);
    drag = null;
  });
  view.addEventListener('wheel', (e) => {
    e.preventDefault();
    if (mode === 'orbit') {
      orbit.radius = Math.max(0.5, Math.min(5000, orbit.radius * Math.exp(e.deltaY * 0.0015)));
      place();
    }
  }, { passive: false });
  const MOVE_KEYS = ['w', 'a', 's', 'd', 'ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight', 'Shift'];
  view.addEventListener('keydown', (e) => {
    const k = e.key.length === 1 ? e.key.toLowerCase() : e.key;
    if (k === 'f') { fit(); return; }
    if (k === 'v') { $('vis-follow').click(); return; }
    if (mode === 'walk' && MOVE_KEYS.includes(k)) { walker.keys.add(k); e.preventDefault(); }
  });
  view.addEventListener('keyup', (e) => {
    const k = e.key.length === 1 ? e.key.toLowerCase() : e.key;
    walker.keys.delete(k);
  });
  view.addEventListener('blur', () => walker.keys.clear());
  for (const m of ['orbit', 'walk']) $('camera-' + m).addEventListener('change', () => setMode(m));
  $('fit').addEventListener('click', fit);

  // ---------------------------------------------------------------- picking
  const raycaster = new T.Raycaster();
  function pick(cx, cy) {
    const r = canvas.getBoundingClientRect();
    const ndc = new T.Vector2(((cx - r.left) / r.width) * 2 - 1, -((cy - r.top) / r.height) * 2 + 1);
    raycaster.setFromCamera(ndc, camera);
    const targets = pickable.filter((m) => m.visible && m.parent && m.parent.visible);
    if (layers.walkmesh) targets.push(...groups.walkmesh.children.filter((c) => c.isMesh));
    const hit = raycaster.intersectObjects(targets, false)[0];
    const info = $('pick-info');
    if (!hit) { info.textContent = 'Nothing there.'; info.dataset.kind = 'none'; return null; }
    const p = hit.point;
    let text;
    const ud = hit.object.userData;
    const ground = heightAt(p.x, p.y, p.z, false);
    if (ud.walkmesh) {
      text = `walkmesh\nroom      ${ground ? ground.room : '?'}\nface      ${ground ? ground.face : '?'}`;
      info.dataset.kind = 'walkmesh';
    } else if (ud.objectBox !== undefined || (ud.object !== null && ud.object !== undefined)) {
      const o = D.objects[ud.objectBox !== undefined ? ud.objectBox : ud.object];
      text = `${o.kind} ${o.label}\nmodel     ${o.model}${o.model_found ? '' : ' (not found: a box)'}\nfrom      ${o.source}`;
      info.dataset.kind = 'object';
    } else {
      const g = hit.object.geometry.groups.find((gr) => hit.faceIndex * 3 >= gr.start && hit.faceIndex * 3 < gr.start + gr.count);
      const mat = g ? hit.object.material[g.materialIndex] : null;
      const spec = mat ? mat.userData.spec : {};
      const room = ud.room !== null && ud.room !== undefined ? D.rooms[ud.room].name : '';
      text = `room      ${room}\nmesh      ${hit.object.name}\ntexture   ${spec.texture_name || '(none)'}\nlightmap  ${spec.lightmap_name || '(none)'}`;
      info.dataset.kind = 'model';
      info.dataset.room = room;
      if (visActive() && ud.room !== null && ud.room !== undefined) setVisRoom(ud.room);
    }
    text += `\npoint     ${p.x.toFixed(2)}, ${p.y.toFixed(2)}, ${p.z.toFixed(2)}`;
    if (ground) text += `\nground z  ${ground.z.toFixed(3)} (${ground.walkable ? 'walkable' : 'not walkable'})`;
    info.textContent = text;
    return text;
  }

  // ---------------------------------------------------------------- VIS inspector
  const visSelect = $('vis-room');
  let visRoom = null;
  function visActive() { return visRoom !== null || $('vis-follow').checked; }
  function setVisRoom(ri) {
    visRoom = ri === '' || ri === null || ri === undefined ? null : Number(ri);
    visSelect.value = visRoom === null ? '' : String(visRoom);
    const info = $('vis-info');
    const rows = D.vis.rows;
    if (visRoom === null) {
      for (const list of roomMeshes) for (const m of list) m.visible = true;
      info.textContent = D.vis.present ? 'Every room is drawn.' : 'The area has no VIS file: every room is drawn.';
      info.dataset.visible = String(D.rooms.length);
    } else {
      const row = rows[visRoom] || [];
      const seen = new Set([visRoom, ...row]);
      roomMeshes.forEach((list, i) => { for (const m of list) m.visible = seen.has(i); });
      const names = [...seen].sort((a, b) => a - b).map((i) => D.rooms[i].name);
      const hidden = D.rooms.filter((r, i) => !seen.has(i)).map((r) => r.name);
      info.textContent = `From ${D.rooms[visRoom].name} the engine draws ${names.length} room(s):\n  ${names.join('\n  ')}` +
        (hidden.length ? `\nnot drawn (${hidden.length}):\n  ${hidden.join('\n  ')}` : '');
      info.dataset.visible = String(names.length);
    }
    requestRender();
  }
  function followVis() {
    if (!$('vis-follow').checked) return;
    const hit = heightAt(camera.position.x, camera.position.y, mode === 'walk' ? walker.z : null, false);
    const ri = hit ? D.rooms.findIndex((r) => r.name === hit.room) : -1;
    if (ri >= 0 && ri !== visRoom) setVisRoom(ri);
  }
  function setupVis() {
    D.rooms.forEach((r, i) => {
      const o = document.createElement('option');
      o.value = String(i);
      o.textContent = r.name;
      visSelect.appendChild(o);
    });
    if (!D.vis.present) {
      visSelect.disabled = true;
      $('vis-follow').disabled = true;
    }
    visSelect.addEventListener('change', () => setVisRoom(visSelect.value));
    $('vis-follow').addEventListener('change', () => { if ($('vis-follow').checked) followVis(); else setVisRoom(null); });
    setVisRoom(null);
  }

  // ---------------------------------------------------------------- layers panel
  const layerNames = {
    models: 'Room models', textures: 'Textures', lightmaps: 'Lightmaps', objects: 'Doors and placeables',
    walkmesh: 'Walkmesh (materials)', findings: 'Findings of check', paths: 'Paths',
  };
  function applyLayers() {
    groups.models.visible = layers.models;
    groups.objects.visible = layers.objects;
    groups.walkmesh.visible = layers.walkmesh;
    groups.findings.visible = layers.findings && layers.walkmesh;
    groups.paths.visible = layers.paths;
    for (const m of materials) applyMaps(m);
    requestRender();
  }
  function setLayer(name, on) {
    layers[name] = on;
    const box = $('layer-' + name);
    if (box) box.checked = on;
    applyLayers();
  }
  function setupLayers() {
    const div = $('layers');
    for (const [k, label] of Object.entries(layerNames)) {
      if (k === 'walkmesh' && !D.walkmesh) continue;
      if (k === 'findings' && !D.findings.length) continue;
      if (k === 'paths' && !D.paths.length) continue;
      if (k === 'objects' && !D.objects.length) continue;
      const row = document.createElement('div');
      row.className = 'row';
      row.innerHTML = `<label><input type="checkbox" id="layer-${k}"> ${label}</label>`;
      div.appendChild(row);
      const box = row.querySelector('input');
      box.checked = layers[k];
      box.addEventListener('change', () => setLayer(k, box.checked));
    }
  }

  // ---------------------------------------------------------------- tabs
  function setupTabs() {
    const t3 = $('tab-3d'), t2 = $('tab-2d'), frame = $('map2d');
    if (!D.map2d) { t2.disabled = true; t2.title = 'no walkmesh: no map'; }
    t2.addEventListener('click', () => {
      if (!D.map2d) return;
      if (!frame.srcdoc) frame.srcdoc = new TextDecoder().decode(chunkBytes(D.map2d));
      // The map has its own panel: the 3-D one goes with the 3-D view.
      frame.hidden = false; view.hidden = true; $('side').hidden = true;
      t2.classList.add('on'); t3.classList.remove('on');
    });
    t3.addEventListener('click', () => {
      frame.hidden = true; view.hidden = false; $('side').hidden = false;
      t3.classList.add('on'); t2.classList.remove('on');
      resize();
    });
  }

  // ---------------------------------------------------------------- progress and loading
  const total = D.meshes.length + D.textures.length + 1;
  let done = 0;
  function progress(what) {
    done++;
    $('progress-bar').style.width = `${Math.round((100 * done) / total)}%`;
    $('progress-text').textContent = `${what} (${done}/${total})`;
  }
  function loop(now) {
    walkTick(now);
    if (dirty) renderNow();
    requestAnimationFrame(loop);
  }
  async function load() {
    setupWalkmesh();
    setupFindings();
    addObjectBoxes();
    progress('walkmesh');
    // Geometry room by room; a large area shows what has arrived (and the bar moves) every
    // quarter of a second.
    let shown = performance.now();
    for (let i = 0; i < D.meshes.length; i++) {
      addMesh(D.meshes[i]);
      progress(`meshes ${i + 1} of ${D.meshes.length}`);
      if (performance.now() - shown > 250 && i + 1 < D.meshes.length) {
        renderNow();
        await nextFrame();
        shown = performance.now();
      }
    }
    applyLayers();
    stats.meshesMs = performance.now();
    stats.firstFrame = renderNow();
    await nextFrame();
    stats.interactiveMs = performance.now();
    document.body.dataset.interactive = 'true';
    // Pictures decode off the main thread; four at a time.
    const queue = D.textures.map((_, i) => i);
    const worker = async () => {
      while (queue.length) {
        const i = queue.shift();
        try { await loadTexture(i); } catch (e) { console.warn(`texture ${D.textures[i].name}: ${e}`); }
        progress(`textures ${stats.textures} of ${D.textures.length}`);
        requestRender();
      }
    };
    await Promise.all([worker(), worker(), worker(), worker()]);
    applyLayers();
    renderNow();
    await nextFrame();
    $('progress').classList.add('done');
    $('progress-text').textContent = `${D.meshes.length} meshes, ${D.textures.length} textures`;
    stats.readyMs = performance.now();
    document.body.dataset.ready = 'true';
  }

  // ---------------------------------------------------------------- start
  $('title').textContent = D.title;
  const nObj = D.objects.filter((o) => o.model_found).length;
  $('summary').textContent = `${D.rooms.length} rooms, ${D.meshes.length} meshes, ${D.objects.length} objects (${nObj} with models), ${D.textures.length} textures`;
  const missing = D.materials.filter((m) => m.texture_name && (m.diffuse === null || m.diffuse === undefined)).map((m) => m.texture_name);
  $('texture-info').textContent = `${D.textures.length} embedded` + (missing.length ? `; not found (flat): ${[...new Set(missing)].join(', ')}` : '');
  setupLayers();
  setupVis();
  setupTabs();
  stats.panelMs = performance.now();
  resize();
  fit();
  stats.setupMs = performance.now();
  requestAnimationFrame(loop);

  window.areakitView3d = {
    stats, layers, setLayer, setMode, fit, renderNow, heightAt, pick,
    setVisRoom, get visRoom() { return visRoom; }, get mode() { return mode; },
    walker, orbit, camera, place, tryMove,
    drawn() {
      const r = renderNow();
      let meshes = 0;
      scene.traverseVisible((o) => { if (o.isMesh) meshes++; });
      return { triangles: r.triangles, calls: r.calls, meshes };
    },
    revision: T.REVISION,
    programs: () => renderer.info.programs.map((p) => p.name + ':' + p.cacheKey.length),
  };
  load().catch((e) => { console.error(e); });
})();
