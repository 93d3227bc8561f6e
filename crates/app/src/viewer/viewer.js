// areakit view: draws the data areakit embedded in this page (canvas 2D), with pan/zoom,
// layers and a face inspector. All data is computed by areakit; this script only draws,
// picks and shows. No network access: everything is inline.
"use strict";
(function () {
  const T0 = performance.now();
  const D = JSON.parse(document.getElementById("areakit-data").textContent);
  const b64 = (s, T) => {
    const bin = atob(s);
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    return new T(bytes.buffer);
  };
  const V = b64(D.vertices, Float32Array);
  const F = b64(D.faces, Int32Array);
  const FM = b64(D.face_material, Uint16Array);
  const N = b64(D.normals, Float32Array);
  const NB = b64(D.neighbours, Int32Array);
  const EK = b64(D.edge_kind, Int16Array);
  const AB = b64(D.aabb, Float32Array);
  const AD = b64(D.aabb_depth, Uint16Array);
  const nf = D.face_count;
  const mats = D.materials;
  // Room models: per room, outline loops as flat [x, y, ...] (drawn under the walkmesh).
  const models = D.models || [];

  // Per face: room, plan box, mean z; whether it can be drawn at all.
  const faceRoom = new Int32Array(nf);
  D.rooms.forEach((r, i) => faceRoom.fill(i, r.face_start, r.face_start + r.face_count));
  const box = new Float32Array(nf * 4);
  const zmean = new Float32Array(nf);
  const ok = new Uint8Array(nf);
  let lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (let f = 0; f < nf; f++) {
    const a = F[3 * f], b = F[3 * f + 1], c = F[3 * f + 2];
    if (a < 0 || b < 0 || c < 0) continue;
    ok[f] = 1;
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity, z = 0;
    for (const v of [a, b, c]) {
      const x = V[3 * v], y = V[3 * v + 1];
      x0 = Math.min(x0, x); y0 = Math.min(y0, y); x1 = Math.max(x1, x); y1 = Math.max(y1, y);
      z += V[3 * v + 2] / 3;
    }
    box[4 * f] = x0; box[4 * f + 1] = y0; box[4 * f + 2] = x1; box[4 * f + 3] = y1;
    zmean[f] = z;
    lo = [Math.min(lo[0], x0), Math.min(lo[1], y0), Math.min(lo[2], z)];
    hi = [Math.max(hi[0], x1), Math.max(hi[1], y1), Math.max(hi[2], z)];
  }
  const extend = (x, y) => {
    if (!isFinite(x) || !isFinite(y)) return;
    lo[0] = Math.min(lo[0], x); lo[1] = Math.min(lo[1], y);
    hi[0] = Math.max(hi[0], x); hi[1] = Math.max(hi[1], y);
  };
  D.objects.forEach((o) => { for (let i = 0; i < o.triangles.length; i += 2) extend(o.triangles[i], o.triangles[i + 1]); });
  D.paths.forEach((p) => p.forEach((q) => extend(q[0], q[1])));
  // Room models widen the frame a little (walls beyond the walkmesh), as render's map does:
  // at most 15% of the extent (2 m at least) on each side. Without a walkmesh or overlay the
  // models frame the map.
  {
    const framed = isFinite(lo[0]);
    const pad = framed ? Math.max(0.15 * Math.max(hi[0] - lo[0], hi[1] - lo[1]), 2) : 0;
    const x0 = lo[0] - pad, x1 = hi[0] + pad, y0 = lo[1] - pad, y1 = hi[1] + pad;
    const clamp = (v, a, b) => (framed ? Math.min(b, Math.max(a, v)) : v);
    models.forEach((m) => m.loops.forEach((l) => { for (let i = 0; i + 1 < l.length; i += 2) extend(clamp(l[i], x0, x1), clamp(l[i + 1], y0, y1)); }));
  }
  if (!isFinite(lo[0])) { lo = [0, 0, 0]; hi = [1, 1, 0]; }
  if (!isFinite(lo[2])) { lo[2] = 0; hi[2] = 0; }

  // Draw order: non-walkable first, then walkable from low to high in half-metre bands, by
  // material within a band (long runs of one colour make few fills).
  const order = [];
  for (let f = 0; f < nf; f++) if (ok[f]) order.push(f);
  const walk = (f) => (mats[FM[f]].walkable ? 1 : 0);
  order.sort((p, q) => walk(p) - walk(q) || Math.floor(zmean[p] * 2) - Math.floor(zmean[q] * 2) || FM[p] - FM[q] || zmean[p] - zmean[q]);

  // A uniform grid over the faces' boxes, for picking.
  const cells = Math.max(1, Math.min(256, Math.ceil(Math.sqrt(nf / 4))));
  const gw = (hi[0] - lo[0]) / cells || 1, gh = (hi[1] - lo[1]) / cells || 1;
  const cellOf = (x, y) => [Math.min(cells - 1, Math.max(0, Math.floor((x - lo[0]) / gw))), Math.min(cells - 1, Math.max(0, Math.floor((y - lo[1]) / gh)))];
  const counts = new Int32Array(cells * cells + 1);
  const eachCell = (f, fn) => {
    const [i0, j0] = cellOf(box[4 * f], box[4 * f + 1]);
    const [i1, j1] = cellOf(box[4 * f + 2], box[4 * f + 3]);
    for (let j = j0; j <= j1; j++) for (let i = i0; i <= i1; i++) fn(j * cells + i);
  };
  for (const f of order) eachCell(f, (c) => counts[c + 1]++);
  for (let c = 0; c < cells * cells; c++) counts[c + 1] += counts[c];
  const fill = counts.slice();
  const grid = new Int32Array(counts[cells * cells]);
  for (const f of order) eachCell(f, (c) => { grid[fill[c]++] = f; });

  const layers = {
    materials: true, nonwalkable: true, edges: true, transitions: true, rooms: true,
    aabb: false, findings: D.findings.length > 0, objects: D.objects.length > 0,
    paths: D.paths.length > 0, models: models.length > 0, shading: false,
  };
  const layerNames = {
    materials: "Materials", nonwalkable: "Non-walkable faces", edges: "Boundary edges",
    transitions: "Transitions (target room)", rooms: "Room names", aabb: "AABB boxes (by depth)",
    findings: "Findings of check", objects: "Placed objects", paths: "Paths",
    models: "Room models (outline)", shading: "Height shading",
  };
  let zmax = hi[2];
  let aabbDepth = 0;
  const canvas = document.getElementById("canvas");
  const host = document.getElementById("map");
  const ctx = canvas.getContext("2d");
  let W = 1, H = 1, dpr = 1;
  const view = { cx: (lo[0] + hi[0]) / 2, cy: (lo[1] + hi[1]) / 2, scale: 1 };
  const stats = { draws: 0, lastMs: 0, maxMs: 0, totalMs: 0, drawnFaces: 0 };
  let hover = -1, pinned = -1, cursor = null, highlight = -1;

  const sx = (x) => W / 2 + (x - view.cx) * view.scale;
  const sy = (y) => H / 2 - (y - view.cy) * view.scale;
  const wx = (px) => view.cx + (px - W / 2) / view.scale;
  const wy = (py) => view.cy - (py - H / 2) / view.scale;

  function fit() {
    const ex = Math.max(hi[0] - lo[0], 1e-3), ey = Math.max(hi[1] - lo[1], 1e-3);
    view.scale = Math.min((W - 40) / ex, (H - 40) / ey);
    view.cx = (lo[0] + hi[0]) / 2; view.cy = (lo[1] + hi[1]) / 2;
    redraw();
  }

  function resize() {
    dpr = window.devicePixelRatio || 1;
    const r = host.getBoundingClientRect();
    W = Math.max(1, r.width); H = Math.max(1, r.height);
    canvas.width = Math.round(W * dpr); canvas.height = Math.round(H * dpr);
  }

  function shade(hex, f) {
    let r = parseInt(hex.slice(1, 3), 16), g = parseInt(hex.slice(3, 5), 16), b = parseInt(hex.slice(5, 7), 16);
    if (layers.shading && hi[2] > lo[2]) {
      const t = (zmean[f] - lo[2]) / (hi[2] - lo[2]);
      const k = 0.45 + 0.75 * t;
      r = Math.min(255, r * k); g = Math.min(255, g * k); b = Math.min(255, b * k);
    }
    return "rgb(" + (r | 0) + "," + (g | 0) + "," + (b | 0) + ")";
  }

  function faceStyle(f) {
    const m = mats[FM[f]];
    if (!m.walkable) return "rgba(120,120,120,0.45)";
    const base = layers.materials ? m.colour : "#d8d8d8";
    return layers.shading ? shade(base, f) + "|" + Math.floor(zmean[f] * 4) : base;
  }

  function visible(f) {
    if (!ok[f]) return false;
    if (zmean[f] > zmax + 1e-4) return false;
    return mats[FM[f]].walkable || layers.nonwalkable;
  }

  function triPath(f) {
    const a = F[3 * f], b = F[3 * f + 1], c = F[3 * f + 2];
    ctx.moveTo(sx(V[3 * a]), sy(V[3 * a + 1]));
    ctx.lineTo(sx(V[3 * b]), sy(V[3 * b + 1]));
    ctx.lineTo(sx(V[3 * c]), sy(V[3 * c + 1]));
    ctx.closePath();
  }

  function edgeXY(f, k) {
    const a = F[3 * f + k], b = F[3 * f + (k + 1) % 3];
    return [V[3 * a], V[3 * a + 1], V[3 * b], V[3 * b + 1]];
  }

  function draw() {
    const t0 = performance.now();
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.fillStyle = "#ffffff";
    ctx.fillRect(0, 0, W, H);
    // Room models first, light, so the walkmesh lies over them.
    if (layers.models) {
      ctx.lineJoin = "round";
      for (const m of models) {
        ctx.beginPath();
        for (const l of m.loops) {
          for (let i = 0; i + 1 < l.length; i += 2) {
            if (i) ctx.lineTo(sx(l[i]), sy(l[i + 1])); else ctx.moveTo(sx(l[i]), sy(l[i + 1]));
          }
          ctx.closePath();
        }
        ctx.globalAlpha = 0.16; ctx.fillStyle = D.model_colours.fill; ctx.fill("evenodd");
        ctx.globalAlpha = 0.55; ctx.strokeStyle = D.model_colours.stroke; ctx.lineWidth = 0.8; ctx.stroke();
        ctx.globalAlpha = 1;
      }
    }
    // The visible world rectangle, for culling.
    const vx0 = wx(0), vx1 = wx(W), vy0 = wy(H), vy1 = wy(0);
    const inView = (f) => box[4 * f + 2] >= vx0 && box[4 * f] <= vx1 && box[4 * f + 3] >= vy0 && box[4 * f + 1] <= vy1;
    let style = null, drawn = 0;
    ctx.lineJoin = "round";
    const flush = () => {
      if (style === null) return;
      const colour = style.split("|")[0];
      ctx.fillStyle = colour; ctx.fill();
      if (!colour.startsWith("rgba")) { ctx.strokeStyle = colour; ctx.lineWidth = 0.5; ctx.stroke(); }
    };
    // Paths are flushed every CHUNK triangles: Chrome's canvas fills and strokes one path's
    // subpaths in more than linear time, so one path of 50 000 triangles takes seconds.
    const CHUNK = 256;
    let inPath = 0;
    ctx.beginPath();
    for (const f of order) {
      if (!visible(f) || !inView(f)) continue;
      const s = faceStyle(f);
      if (s !== style || inPath >= CHUNK) { flush(); ctx.beginPath(); style = s; inPath = 0; }
      triPath(f); drawn++; inPath++;
    }
    flush();
    // Edges: boundary and transitions of visible faces.
    if (layers.edges || layers.transitions) {
      // Boundary edges then transitions, each in chunks (see CHUNK above).
      ctx.lineCap = "round";
      for (const [on, transition, colour, width] of [[layers.edges, false, "#202020", 1.2], [layers.transitions, true, "#ff7f00", 3]]) {
        if (!on) continue;
        ctx.strokeStyle = colour; ctx.lineWidth = width;
        let n = 0;
        ctx.beginPath();
        for (const f of order) {
          if (!visible(f) || !inView(f)) continue;
          for (let k = 0; k < 3; k++) {
            const e = EK[3 * f + k];
            if (e === -2 || (e >= 0) !== transition) continue;
            const [x0, y0, x1, y1] = edgeXY(f, k);
            ctx.moveTo(sx(x0), sy(y0)); ctx.lineTo(sx(x1), sy(y1));
            if (++n % CHUNK === 0) { ctx.stroke(); ctx.beginPath(); }
          }
        }
        ctx.stroke();
      }
    }
    if (layers.aabb) {
      ctx.lineWidth = 1;
      for (let n = 0, i = 0; n < AD.length; n++, i += 4) {
        if (AD[n] !== aabbDepth) continue;
        ctx.strokeStyle = "hsl(" + ((aabbDepth * 47) % 360) + ",80%,40%)";
        ctx.strokeRect(sx(AB[i]), sy(AB[i + 3]), (AB[i + 2] - AB[i]) * view.scale, (AB[i + 3] - AB[i + 1]) * view.scale);
      }
    }
    if (layers.objects) {
      ctx.fillStyle = "rgba(139,26,26,0.55)"; ctx.strokeStyle = "#5a0000"; ctx.lineWidth = 0.8;
      for (const o of D.objects) {
        ctx.beginPath();
        const t = o.triangles;
        for (let i = 0; i + 5 < t.length; i += 6) {
          ctx.moveTo(sx(t[i]), sy(t[i + 1])); ctx.lineTo(sx(t[i + 2]), sy(t[i + 3])); ctx.lineTo(sx(t[i + 4]), sy(t[i + 5])); ctx.closePath();
        }
        ctx.fill(); ctx.stroke();
      }
    }
    if (layers.paths) {
      for (const p of D.paths) {
        if (p.length === 0) continue;
        ctx.beginPath(); ctx.strokeStyle = "#1060e0"; ctx.lineWidth = 3; ctx.lineJoin = "round";
        p.forEach((q, i) => (i ? ctx.lineTo(sx(q[0]), sy(q[1])) : ctx.moveTo(sx(q[0]), sy(q[1]))));
        ctx.stroke();
        for (const [q, c] of [[p[0], "#10a010"], [p[p.length - 1], "#e01010"]]) {
          ctx.beginPath(); ctx.arc(sx(q[0]), sy(q[1]), 5, 0, 2 * Math.PI); ctx.fillStyle = c; ctx.fill();
        }
      }
    }
    // Labels.
    ctx.textAlign = "center"; ctx.lineJoin = "round";
    const label = (text, x, y, font, colour, halo) => {
      ctx.font = font; ctx.strokeStyle = "#ffffff"; ctx.lineWidth = halo; ctx.strokeText(text, x, y);
      ctx.fillStyle = colour; ctx.fillText(text, x, y);
    };
    if (layers.transitions) {
      for (const t of D.transition_labels) {
        ctx.textAlign = t.dx < -0.5 ? "right" : t.dx > 0.5 ? "left" : "center";
        label(t.text, sx(t.x) + t.dx * 6, sy(t.y) - t.dy * 12 + 4, "11px sans-serif", "#a04000", 3);
      }
      ctx.textAlign = "center";
    }
    if (layers.rooms) for (const r of D.rooms) if (r.name && r.centre) label(r.name, sx(r.centre[0]), sy(r.centre[1]) + 5, "bold 14px sans-serif", "#000000", 4);
    if (layers.findings) {
      ctx.textAlign = "left";
      for (const f of D.findings) {
        if (!f.position) continue;
        const x = sx(f.position[0]), y = sy(f.position[1]);
        const c = f.severity === "error" ? "#e00000" : f.severity === "info" ? "#707070" : "#c000c0";
        ctx.beginPath(); ctx.arc(x, y, f.n === highlight ? 10 : 6, 0, 2 * Math.PI); ctx.strokeStyle = c; ctx.lineWidth = 2; ctx.stroke();
        label(String(f.n), x + 7, y - 5, "bold 10px sans-serif", c, 2.5);
      }
    }
    // The selected (pinned) or hovered face.
    const sel = pinned >= 0 ? pinned : hover;
    if (sel >= 0) {
      ctx.beginPath(); triPath(sel); ctx.strokeStyle = "#00b0ff"; ctx.lineWidth = 2.5; ctx.stroke();
    }
    drawScaleBar();
    keepBase();
    const ms = performance.now() - t0;
    stats.draws++; stats.lastMs = ms; stats.totalMs += ms; stats.maxMs = Math.max(stats.maxMs, ms); stats.drawnFaces = drawn;
  }

  function drawScaleBar() {
    const target = 120 / view.scale;
    const p = Math.pow(10, Math.floor(Math.log10(target)));
    const len = [5, 2, 1].map((k) => k * p).find((l) => l <= target) || p;
    const px = len * view.scale, x = 16, y = H - 18;
    ctx.fillStyle = "rgba(255,255,255,0.85)"; ctx.fillRect(x - 6, y - 20, px + 70, 30);
    ctx.strokeStyle = "#000"; ctx.lineWidth = 1.5;
    ctx.beginPath(); ctx.moveTo(x, y - 6); ctx.lineTo(x, y); ctx.lineTo(x + px, y); ctx.lineTo(x + px, y - 6); ctx.stroke();
    ctx.fillStyle = "#000"; ctx.font = "12px sans-serif"; ctx.textAlign = "left";
    ctx.fillText(+len.toPrecision(3) + " m", x + px + 6, y);
  }

  // While panning or zooming a map whose full redraw is slow, frames move the last full
  // picture (one image draw) and the full redraw follows when the motion stops.
  const base = document.createElement("canvas");
  let baseView = null, settle = 0, pendingQuick = false;
  function keepBase() {
    base.width = canvas.width; base.height = canvas.height;
    base.getContext("2d").drawImage(canvas, 0, 0);
    baseView = { cx: view.cx, cy: view.cy, scale: view.scale };
  }
  function quick() {
    const t0 = performance.now();
    const k = view.scale / baseView.scale;
    const tx = W / 2 + (baseView.cx - view.cx) * view.scale - k * W / 2;
    const ty = H / 2 - (baseView.cy - view.cy) * view.scale - k * H / 2;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.fillStyle = "#ffffff"; ctx.fillRect(0, 0, W, H);
    ctx.setTransform(dpr * k, 0, 0, dpr * k, dpr * tx, dpr * ty);
    ctx.drawImage(base, 0, 0, W, H);
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    stats.quickFrames = (stats.quickFrames || 0) + 1;
    stats.quickMs = performance.now() - t0;
  }
  let pending = false;
  function redraw(moving) {
    if (moving === true && baseView && stats.lastMs > 30) {
      if (!pendingQuick) { pendingQuick = true; requestAnimationFrame(() => { pendingQuick = false; if (!pending) quick(); }); }
      clearTimeout(settle);
      settle = setTimeout(() => redraw(false), 150);
      return;
    }
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => { pending = false; draw(); });
  }

  // Picking: the highest visible face under the point.
  function inside(f, x, y) {
    const a = F[3 * f], b = F[3 * f + 1], c = F[3 * f + 2];
    const ax = V[3 * a], ay = V[3 * a + 1], bx = V[3 * b], by = V[3 * b + 1], cx = V[3 * c], cy = V[3 * c + 1];
    const d1 = (bx - ax) * (y - ay) - (by - ay) * (x - ax);
    const d2 = (cx - bx) * (y - by) - (cy - by) * (x - bx);
    const d3 = (ax - cx) * (y - cy) - (ay - cy) * (x - cx);
    const neg = d1 < 0 || d2 < 0 || d3 < 0, pos = d1 > 0 || d2 > 0 || d3 > 0;
    return !(neg && pos);
  }
  function heightAt(f, x, y) {
    const nz = N[3 * f + 2], a = F[3 * f];
    if (Math.abs(nz) < 1e-6) return zmean[f];
    return V[3 * a + 2] - (N[3 * f] * (x - V[3 * a]) + N[3 * f + 1] * (y - V[3 * a + 1])) / nz;
  }
  function pick(x, y) {
    if (x < lo[0] || x > hi[0] || y < lo[1] || y > hi[1]) return -1;
    const [i, j] = cellOf(x, y), c = j * cells + i;
    let best = -1, bz = -Infinity, bw = -1;
    for (let k = counts[c]; k < counts[c + 1]; k++) {
      const f = grid[k];
      if (!visible(f) || !inside(f, x, y)) continue;
      const w = walk(f), z = heightAt(f, x, y);
      if (w > bw || (w === bw && z > bz)) { best = f; bz = z; bw = w; }
    }
    return best;
  }

  const fmt = (x) => (Math.abs(x) < 1e-9 ? 0 : x).toFixed(3);
  function showFace(f, at) {
    const info = document.getElementById("face-info");
    if (f < 0) { info.textContent = "No face here."; info.dataset.face = ""; info.dataset.material = ""; return; }
    const r = D.rooms[faceRoom[f]], local = f - r.face_start, m = mats[FM[f]];
    const nb = [0, 1, 2].map((k) => NB[3 * f + k]).map((n) => (n < 0 ? "—" : String(n)));
    const edges = [0, 1, 2].map((k) => {
      const e = EK[3 * f + k];
      if (e === -1) return "edge " + k + ": boundary";
      if (e >= 0) return "edge " + k + ": transition " + e + (D.room_names[e] ? " → " + D.room_names[e] : "");
      return null;
    }).filter((s) => s);
    const lines = [];
    if (r.name) lines.push("room      " + r.name);
    lines.push("face      " + local);
    lines.push("material  " + m.name + " (" + m.id + ")");
    lines.push("walkable  " + (m.walkable ? "yes" : "no"));
    if (at) lines.push("at        " + fmt(at[0]) + ", " + fmt(at[1]) + "  z " + fmt(heightAt(f, at[0], at[1])));
    lines.push("normal    " + [0, 1, 2].map((k) => fmt(N[3 * f + k])).join(", "));
    lines.push("neighbours " + nb.join(", "));
    for (const e of edges) lines.push(e);
    info.textContent = lines.join("\n");
    info.dataset.face = String(local);
    info.dataset.material = m.name;
    info.dataset.room = r.name || "";
  }

  // Input: pointer drag, pinch, wheel, keys.
  const pointers = new Map();
  let dragged = false, pinch = null;
  canvas.addEventListener("pointerdown", (e) => {
    canvas.setPointerCapture(e.pointerId);
    pointers.set(e.pointerId, [e.offsetX, e.offsetY]);
    dragged = false;
    if (pointers.size === 2) {
      const [p, q] = [...pointers.values()];
      pinch = { d: Math.hypot(p[0] - q[0], p[1] - q[1]), scale: view.scale };
    }
    host.focus();
  });
  canvas.addEventListener("pointermove", (e) => {
    const prev = pointers.get(e.pointerId);
    if (prev) {
      const dx = e.offsetX - prev[0], dy = e.offsetY - prev[1];
      pointers.set(e.pointerId, [e.offsetX, e.offsetY]);
      if (pointers.size === 2 && pinch) {
        const [p, q] = [...pointers.values()];
        const d = Math.hypot(p[0] - q[0], p[1] - q[1]);
        zoomAt((p[0] + q[0]) / 2, (p[1] + q[1]) / 2, (pinch.scale * d) / Math.max(pinch.d, 1) / view.scale);
        dragged = true;
        return;
      }
      if (Math.abs(dx) + Math.abs(dy) > 0) {
        if (Math.abs(dx) + Math.abs(dy) > 2) dragged = true;
        view.cx -= dx / view.scale; view.cy += dy / view.scale;
        redraw(true);
        return;
      }
    }
    const x = wx(e.offsetX), y = wy(e.offsetY);
    cursor = [x, y];
    const f = pick(x, y);
    if (f !== hover) { hover = f; redraw(); }
    if (pinned < 0) showFace(f, cursor);
  });
  const release = (e) => {
    const was = pointers.has(e.pointerId);
    pointers.delete(e.pointerId);
    if (pointers.size < 2) pinch = null;
    if (was && !dragged && e.type === "pointerup") {
      const at = [wx(e.offsetX), wy(e.offsetY)];
      pinned = pick(at[0], at[1]);
      showFace(pinned, at);
      redraw();
    }
  };
  canvas.addEventListener("pointerup", release);
  canvas.addEventListener("pointercancel", release);
  function zoomAt(px, py, k) {
    const x = wx(px), y = wy(py);
    view.scale = Math.min(1e5, Math.max(1e-4, view.scale * k));
    view.cx = x - (px - W / 2) / view.scale;
    view.cy = y + (py - H / 2) / view.scale;
    redraw(true);
  }
  canvas.addEventListener("wheel", (e) => {
    e.preventDefault();
    zoomAt(e.offsetX, e.offsetY, Math.exp(-e.deltaY * (e.deltaMode ? 0.05 : 0.0015)));
  }, { passive: false });
  host.addEventListener("keydown", (e) => {
    const step = 60 / view.scale;
    const keys = {
      ArrowLeft: () => { view.cx -= step; }, ArrowRight: () => { view.cx += step; },
      ArrowUp: () => { view.cy += step; }, ArrowDown: () => { view.cy -= step; },
      "+": () => zoomAt(W / 2, H / 2, 1.25), "=": () => zoomAt(W / 2, H / 2, 1.25),
      "-": () => zoomAt(W / 2, H / 2, 0.8), f: fit, F: fit, 0: fit,
      Escape: () => { pinned = -1; },
    };
    if (keys[e.key]) { e.preventDefault(); keys[e.key](); redraw(e.key.startsWith("Arrow") || e.key === "+" || e.key === "=" || e.key === "-"); }
  });
  document.getElementById("fit").addEventListener("click", () => fit());

  // Side panel: title, layers, legend, findings.
  document.getElementById("title").textContent = D.title;
  const walkable = order.filter((f) => mats[FM[f]].walkable).length;
  document.getElementById("summary").textContent = nf + " faces (" + walkable + " walkable)" + (D.kind === "area" ? ", " + D.rooms.length + " rooms" : "") + (D.kind === "trx" ? " — NWN2 terrain, walkable faces coloured by island" : "");
  const layerBox = document.getElementById("layers");
  for (const k of Object.keys(layers)) {
    const row = document.createElement("div"); row.className = "row";
    const cb = document.createElement("input"); cb.type = "checkbox"; cb.id = "layer-" + k; cb.checked = layers[k];
    cb.addEventListener("change", () => { layers[k] = cb.checked; redraw(); });
    const lb = document.createElement("label"); lb.htmlFor = cb.id; lb.textContent = layerNames[k];
    row.append(cb, lb); layerBox.append(row);
  }
  const zs = document.getElementById("zmax"), zv = document.getElementById("zmax-value");
  const zFromSlider = () => lo[2] + (hi[2] - lo[2]) * (zs.value / 1000);
  zv.textContent = hi[2].toFixed(2);
  zs.addEventListener("input", () => { zmax = zs.value >= 1000 ? hi[2] : zFromSlider(); zv.textContent = zmax.toFixed(2); redraw(); });
  let maxDepth = 0;
  for (let n = 0; n < AD.length; n++) maxDepth = Math.max(maxDepth, AD[n]);
  const ds = document.getElementById("aabb-depth");
  ds.max = String(maxDepth);
  ds.addEventListener("input", () => { aabbDepth = +ds.value; document.getElementById("aabb-depth-value").textContent = ds.value; if (!layers.aabb) { layers.aabb = true; document.getElementById("layer-aabb").checked = true; } redraw(); });
  const legend = document.getElementById("legend");
  const countBy = new Int32Array(mats.length);
  for (let f = 0; f < nf; f++) countBy[FM[f]]++;
  const swatch = (css, text) => {
    const row = document.createElement("div"); row.className = "row";
    const s = document.createElement("span"); s.className = "sw"; s.style.cssText = css;
    const t = document.createElement("span"); t.textContent = text;
    row.append(s, t); legend.append(row);
  };
  mats.map((m, i) => [m, i]).sort((p, q) => q[0].walkable - p[0].walkable || p[0].id - q[0].id).forEach(([m, i]) =>
    swatch("background:" + (m.walkable ? m.colour : "rgba(120,120,120,0.45)"), m.name + " (" + m.id + ", " + (m.walkable ? "walkable" : "not walkable") + "): " + countBy[i] + " faces"));
  swatch("background:#202020;height:2px", "boundary edge");
  swatch("background:#ff7f00;height:4px", "transition → target room");
  if (D.objects.length) swatch("background:rgba(139,26,26,0.55)", "placed object");
  if (D.paths.length) swatch("background:#1060e0;height:4px", "path (green start, red end)");
  if (models.length) swatch("background:rgba(90,110,150,0.16);border-color:" + D.model_colours.stroke, "room model (top-down outline)");
  const list = document.getElementById("findings");
  document.getElementById("findings-title").textContent = "Findings (" + D.findings.length + ")";
  for (const f of D.findings) {
    const li = document.createElement("li"); li.className = f.severity; li.id = "finding-" + f.n;
    li.textContent = (f.room ? f.room + ": " : "") + f.code + ": " + f.message + (f.position ? "" : " (no position)");
    li.addEventListener("click", () => goToFinding(f.n));
    list.append(li);
  }
  function goToFinding(n) {
    const f = D.findings[n - 1];
    if (!f) return;
    highlight = n;
    if (!layers.findings) { layers.findings = true; document.getElementById("layer-findings").checked = true; }
    if (f.position) { view.cx = f.position[0]; view.cy = f.position[1]; view.scale = Math.max(view.scale, 40); }
    redraw();
  }

  // For tests and tools: map coordinates and state.
  window.areakitView = {
    worldToScreen: (x, y) => { const r = canvas.getBoundingClientRect(); return [r.left + sx(x), r.top + sy(y)]; },
    screenToWorld: (px, py) => { const r = canvas.getBoundingClientRect(); return [wx(px - r.left), wy(py - r.top)]; },
    view, layers, stats, fit, goToFinding, pick,
    faceCount: nf,
    modelCount: models.length,
    redrawNow: () => { draw(); return stats.lastMs; },
  };

  window.addEventListener("resize", () => { resize(); redraw(); });
  resize();
  fit();
  stats.setupMs = performance.now() - T0;
  requestAnimationFrame(() => requestAnimationFrame(() => {
    stats.readyMs = performance.now() - T0;
    document.body.dataset.ready = "true";
  }));
})();
