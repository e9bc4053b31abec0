package browser

// The checks of this file stand for drawing each figure file as an image:
// they read the file as figureHost laid it out, in a shadow root, and
// show from its style sheets, computed styles and geometry what the
// pixels of an <img> of it would show. (Drawing every file in both
// schemes, and loading it a second time as an image to do so, was two
// thirds of the embedded subtests' CPU.)
//
//   - sameInImage shows that the shadow root's layout is the image's:
//     the file's rules apply alike in both, so its computed styles and
//     geometry are those of the image;
//   - fixedScheme shows that nothing the file draws can follow the
//     reader's colour scheme, so that an <img> of it draws the same
//     pixels in the light and the dark scheme (what comparing its two
//     rasters showed);
//   - coverProof shows that no pixel of it lets the page show through
//     (what reading the alpha of its raster showed).
//
// The pixel anchor (anchor_test.go) still draws a few files, one of each
// kind of figure, and every catch file, to check that the pixels agree.

// cssPlain is a JavaScript function that returns a CSS text with its
// escapes decoded and in lower case, so that a search for a function or
// a media feature by name finds it however it is spelt
// (light-d\61rk( is light-dark(, and CSS names ignore case).
const cssPlain = `(s) => (s || '').replace(/\\([0-9a-fA-F]{1,6})\s?|\\([^])/g, (m, h, c) => {
  if (!h) return c;
  const n = parseInt(h, 16);
  return n > 0 && n <= 0x10FFFF ? String.fromCodePoint(n) : '\uFFFD';
}).toLowerCase()`

// eachRule is a JavaScript function that calls visit(rule, where) for
// every rule of the style sheets of the shadow root of top (the file's
// own sheets), at any nesting, with where naming the rule's sheet, and
// visitSheet(sheet, where) for each sheet.
const eachRule = `(top, visit, visitSheet) => {
  const walk = (rules, where) => { for (const r of rules) { visit(r, where); if (r.cssRules) walk(r.cssRules, where); } };
  [...top.getRootNode().styleSheets].forEach((sh, i) => { visitSheet(sh, 'style sheet ' + i); walk(sh.cssRules, 'style sheet ' + i); });
}`

// sameInImage lists what could make the file draw otherwise as an image
// than in its shadow root. The two hold the same elements with the same
// attributes, and their inherited properties start from initial values in
// both (the host is all: initial); what differs is the world around the
// root: in an image the root <svg> is :root and the viewport is the
// image, in the shadow root it is neither, and a query for the width, a
// container, an animation's clock or a nested document answers
// otherwise. So the file may hold only style rules whose selectors
// mention neither :root, :host nor :scope, under no condition but a
// prefers-color-scheme query (whose answer is the page's in both: the
// scheme is emulated for the tab), in sheets with no media of their own,
// and no element that animates, runs or loads something (animate, set,
// animateMotion, animateTransform, script, image, feImage,
// foreignObject, use of another file).
const sameInImage = `(top) => {
  const plain = (` + cssPlain + `), bad = [];
  const schemeOnly = /^\(prefers-color-scheme:\s*(light|dark)\)$/;
  const nested = window.CSSNestedDeclarations || function () {};
  (` + eachRule + `)(top, (r, where) => {
    if (r instanceof CSSStyleRule) {
      if (/:(root|host|scope)\b/.test(plain(r.selectorText))) bad.push(where + ': the selector ' + r.selectorText + ' matches otherwise in an image');
    } else if (r instanceof CSSMediaRule) {
      if (!schemeOnly.test(plain(r.media.mediaText).trim())) bad.push(where + ': a rule under @media ' + r.media.mediaText + ', which an image answers for its own viewport');
    } else if (!(r instanceof nested)) {
      bad.push(where + ': a ' + r.constructor.name + ' (' + r.cssText.slice(0, 40) + ')');
    }
  }, (sh, where) => {
    if (sh.media.mediaText) bad.push(where + ' has media of its own (' + sh.media.mediaText + ')');
  });
  const loads = 'animate, set, animateMotion, animateTransform, script, image, feImage, foreignObject';
  for (const e of top.querySelectorAll(loads)) bad.push('it holds an <' + e.localName + '>');
  for (const e of top.querySelectorAll('use')) {
    const h = e.getAttribute('href') || e.getAttribute('xlink:href') || '';
    if (!h.startsWith('#')) bad.push('a <use> of ' + h);
  }
  return bad;
}`

// fixedScheme lists what in the file could follow the reader's colour
// scheme. CSS lets a document follow it in two ways only: a rule or a
// sheet under a prefers-color-scheme query, and a colour that depends on
// the used color-scheme (light-dark(), and the system colours Canvas,
// CanvasText, …), under a color-scheme that lets the reader choose. So it
// lists every sheet and every conditional rule whose media mention
// prefers-color-scheme, every declaration of a rule or style attribute,
// and every presentation attribute that takes a colour (fill, stroke,
// …), that holds light-dark() (custom properties too,
// so that a var() cannot hide one; whatever the color-scheme, which is
// stricter than needed), and every color-scheme declaration but normal,
// light, dark, only light and only dark; each text is read with its
// escapes decoded (cssPlain). When it lists nothing, the file's computed
// styles are the same in both schemes, and so is every pixel of it.
const fixedScheme = `(top) => {
  const plain = (` + cssPlain + `), bad = [];
  const fixed = new Set(['normal', 'light', 'dark', 'only light', 'only dark']);
  const scheme = (m) => plain(m).includes('prefers-color-scheme');
  // A function's name is followed by a "(" of its own (an escaped one
  // makes an identifier), so a text without one holds no light-dark().
  const mixes = (v) => v.includes('(') && plain(v).includes('light-dark(');
  const decls = (st, where) => {
    for (let k = 0; k < st.length; k++) {
      const n = st[k], v = st.getPropertyValue(n);
      if (mixes(v)) bad.push(where + ' sets ' + n + ' to light-dark()');
      else if (n === 'color-scheme' && !fixed.has(plain(v).trim())) bad.push(where + ' sets color-scheme: ' + plain(v).trim());
    }
  };
  (` + eachRule + `)(top, (r, where) => {
    if (r.media && scheme(r.media.mediaText)) bad.push('a rule under @media ' + r.media.mediaText + ' in its ' + where);
    if (r.style) decls(r.style, (r.selectorText || 'a rule') + ' in its ' + where);
  }, (sh, where) => {
    if (scheme(sh.media.mediaText)) bad.push('its ' + where + ' is for ' + sh.media.mediaText);
  });
  // Of the attributes, only a style attribute and the presentation
  // attributes that take a colour can hold a light-dark() that draws; a
  // selector finds those that hold one, or an escape that may spell one
  // (a loop over every attribute took a tenth of the embedded subtests).
  const colours = ['fill', 'stroke', 'color', 'stop-color', 'flood-color', 'lighting-color'];
  const sel = colours.map(a => '[' + a + '*="light-dark(" i], [' + a + '*="\\\\"]').join(', ');
  for (const e of top.querySelectorAll(sel)) {
    for (const a of colours) if (mixes(e.getAttribute(a) || '')) bad.push('the ' + a + ' of a <' + e.localName + '> holds light-dark()');
  }
  if (top.matches(sel)) for (const a of colours) if (mixes(top.getAttribute(a) || '')) bad.push('the ' + a + ' of its <svg> holds light-dark()');
  for (const e of [top, ...top.querySelectorAll('[style]')]) {
    if (e.hasAttribute('style')) decls(e.style, 'the style attribute of a <' + e.localName + '>');
  }
  return bad;
}`

// coverProof says why the page would show through an image of the file
// (top, its <svg>), or returns an empty string when it cannot. An image of the file is
// its width × height attributes in px; a fractional one rounds up, and
// the page shows through the part of the last column or row that the
// figure does not reach. It cannot show through a whole number of px
// covered by one opaque, axis-aligned, square-cornered <rect> with no
// opacity, filter, mask or clip path of its own or of an element around
// it: what a later element paints over an opaque pixel leaves it opaque,
// whatever its opacity or blend mode. (The first <rect> that is not in
// <defs> or a paint server is a figure's background; when none covers,
// the first is the one named.)
const coverProof = `(top) => {
  const px = (a) => [SVGLength.SVG_LENGTHTYPE_NUMBER, SVGLength.SVG_LENGTHTYPE_PX].includes(a.baseVal.unitType) ? a.baseVal.value : NaN;
  if (!top.hasAttribute('width') || !top.hasAttribute('height')) return 'it has no width and height of its own';
  const W = px(top.width), H = px(top.height);
  if (!(W > 0 && H > 0)) return 'its size, ' + top.getAttribute('width') + ' × ' + top.getAttribute('height') + ', is not in px';
  if (!Number.isInteger(W) || !Number.isInteger(H)) return 'it is ' + W + ' × ' + H + ' px, and its last column or row is drawn in part';
  const rb = top.getBoundingClientRect();
  if (Math.abs(rb.width - W) > 0.01 || Math.abs(rb.height - H) > 0.01) return 'it lays out at ' + rb.width + ' × ' + rb.height + ' px, not at its ' + W + ' × ' + H;
  const faded = (e) => {
    const s = getComputedStyle(e), out = [];
    if (s.opacity !== '1') out.push('opacity ' + s.opacity);
    for (const p of ['filter', 'maskImage', 'clipPath']) if (s[p] !== 'none') out.push(p + ' ' + s[p]);
    if (e === top) for (const p of ['transform', 'translate', 'rotate', 'scale']) if (s[p] !== 'none') out.push(p + ' ' + s[p]);
    return out.join(', ');
  };
  const root = faded(top);
  if (root) return 'its <svg> has ' + root;
  const covers = (r) => {
    for (let e = r.parentElement; e !== top; e = e.parentElement) {
      if (!(e instanceof SVGGElement)) return 'it is in a <' + e.localName + '>';
      const f = faded(e);
      if (f) return 'it is in a <g> of ' + f;
    }
    const s = getComputedStyle(r), f = faded(r);
    if (f) return 'it has ' + f;
    const fill = /^rgb\(/.test(s.fill) ? s.fill : '';
    if (!fill || s.fillOpacity !== '1' || s.visibility !== 'visible') return 'its fill is ' + s.fill + ' at fill-opacity ' + s.fillOpacity + ', ' + s.visibility;
    if ((parseFloat(s.rx) || 0) || (parseFloat(s.ry) || 0)) return 'it has round corners';
    const m = r.getScreenCTM();
    if (!m || Math.abs(m.b) > 1e-9 || Math.abs(m.c) > 1e-9) return 'it is turned';
    const b = r.getBoundingClientRect(), x0 = b.left - rb.left, y0 = b.top - rb.top, x1 = b.right - rb.left, y1 = b.bottom - rb.top;
    if (x0 > 0.001 || y0 > 0.001 || x1 < W - 0.001 || y1 < H - 0.001) {
      const n = (v) => +v.toFixed(2);
      return 'it covers (' + n(x0) + ', ' + n(y0) + ')–(' + n(x1) + ', ' + n(y1) + ') of ' + W + ' × ' + H + ' px';
    }
    return '';
  };
  let first = '';
  for (const r of top.querySelectorAll('rect')) {
    if (r.closest('defs, pattern, clipPath, mask, marker, symbol')) continue;
    const why = covers(r);
    if (!why) return '';
    first ||= 'its first <rect> does not cover it: ' + why;
  }
  return first || 'no <rect> covers it';
}`
