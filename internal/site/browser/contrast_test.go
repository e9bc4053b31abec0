package browser

// minContrast is WCAG AA's contrast for text, which every figure file's
// text must keep against what it is drawn on.
const minContrast = 4.5

// textContrast lists, for a laid-out SVG figure (top, its outermost
// <svg>), every text whose contrast with what it is drawn on is under
// minContrast. For each
// <text> or <tspan> with text of its own it takes three points along the
// middle of its box, and at each the shapes drawn before it (document
// order is paint order) whose fill covers that point (isPointInFill),
// composited bottom to top with their fill-opacity and opacity; where no
// opaque shape is under the text, the page shows through, and the text is
// checked on white and on black. Hatch patterns (url fills) count as
// transparent.
//
// It reads each element's computed style, opacity product and inverse
// screen transform once, and finds the shapes under a point through a
// grid of 64 px cells that lists, in paint order, every shape whose box
// meets the cell (the cells past the document's edge gather all beyond
// it): a point's candidates are one cell's list, not every shape of the
// figure. A <line> has no fill area, and is no candidate; a <rect> that
// is not turned and has square corners covers exactly its box, which
// answers for it without isPointInFill (the two took 40% of the
// contrast's time, on the rects of the strips and the bars).
const textContrast = `(top, min) => {
  const rgb = (c) => { const m = /rgba?\(([^)]*)\)/.exec(c); if (!m) return null;
    const p = m[1].split(/[\s,\/]+/).filter(Boolean).map(Number); return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1]; };
  const lin = (v) => { v /= 255; return v <= 0.04045 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
  const lum = (c) => 0.2126 * lin(c[0]) + 0.7152 * lin(c[1]) + 0.0722 * lin(c[2]);
  const ratio = (a, b) => { const x = lum(a), y = lum(b); return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05); };
  const over = (top, a, bottom) => [0, 1, 2].map(i => top[i] * a + bottom[i] * (1 - a));
  const styles = new Map(), opacities = new Map();
  const cs = (e) => { let s = styles.get(e); if (!s) styles.set(e, s = getComputedStyle(e)); return s; };
  const opacity = (e) => { if (!(e instanceof SVGElement)) return 1; let a = opacities.get(e);
    if (a === undefined) opacities.set(e, a = parseFloat(cs(e).opacity) * opacity(e.parentElement)); return a; };
  const alpha = (e, prop) => parseFloat(cs(e)[prop] || '1') * opacity(e);
  const cell = 64, grid = new Map(), doc = top.getBoundingClientRect();
  const cx = (v) => Math.min(Math.ceil(doc.right / cell), Math.max(Math.floor(doc.left / cell) - 1, Math.floor(v / cell)));
  const cy = (v) => Math.min(Math.ceil(doc.bottom / cell), Math.max(Math.floor(doc.top / cell) - 1, Math.floor(v / cell)));
  const cells = (b, add) => { for (let x = cx(b.left); x <= cx(b.right); x++) for (let y = cy(b.top); y <= cy(b.bottom); y++) add(x + ',' + y); };
  const all = [...top.querySelectorAll('*')];
  all.forEach((e, i) => {
    if (!(e instanceof SVGGeometryElement) || e instanceof SVGLineElement || e.closest('defs, pattern, clipPath, mask, marker, text')) return;
    const f = rgb(cs(e).fill);
    if (!f) return;
    const s = {e, i, f, a: alpha(e, 'fillOpacity') * f[3], b: e.getBoundingClientRect(), m: null, box: null};
    cells(s.b, (k) => { let l = grid.get(k); if (!l) grid.set(k, l = []); l.push(s); });
  });
  const covers = (s, x, y) => {
    if (!(x >= s.b.left && x <= s.b.right && y >= s.b.top && y <= s.b.bottom)) return false;
    s.m ??= s.e.getScreenCTM().inverse();
    s.box ??= s.e instanceof SVGRectElement && Math.abs(s.m.b) < 1e-9 && Math.abs(s.m.c) < 1e-9 && !parseFloat(cs(s.e).rx) && !parseFloat(cs(s.e).ry);
    return s.box || s.e.isPointInFill(new DOMPoint(x, y).matrixTransform(s.m));
  };
  const bad = [];
  all.forEach((t, ti) => {
    if (!(t instanceof SVGTextContentElement)) return;
    if (![...t.childNodes].some(n => n.nodeType === 3 && n.textContent.trim())) return;
    const fill = rgb(cs(t).fill);
    if (!fill) { bad.push({Text: t.textContent.trim(), Why: 'fill ' + cs(t).fill}); return; }
    const fa = alpha(t, 'fillOpacity') * fill[3];
    const b = t.getBoundingClientRect();
    let worst = Infinity, on = '';
    for (const fx of [0.2, 0.5, 0.8]) {
      const x = b.left + fx * b.width, y = b.top + b.height / 2;
      const under = (grid.get(cx(x) + ',' + cy(y)) || []).filter(s => s.i < ti && covers(s, x, y));
      for (const page of [[255, 255, 255], [0, 0, 0]]) {
        let bg = page;
        for (const s of under) bg = over(s.f, s.a, bg);
        const r = ratio(over(fill, fa, bg), bg);
        if (r < worst) { worst = r; on = 'rgb(' + bg.map(Math.round).join(',') + ')'; }
      }
    }
    if (worst < min) bad.push({Text: t.textContent.trim(), Why: worst.toFixed(2) + ':1, ' + cs(t).fill + ' on ' + on});
  });
  return bad;
}`

// lowText is a text that textContrast found under minContrast: what it
// says, and its contrast, colour and what it is drawn on.
type lowText struct {
	Text, Why string
}
