package browser

// schemeProof lists what could make a page lay out differently in the
// dark colour scheme than in the light one; when it lists nothing, the
// dark page's geometry is the light page's, and the light inspections
// stand for both schemes. It reads the page's style sheets through the
// CSSOM (the page's own and its inline SVGs', one list in the document),
// and holds the page to these rules:
//   - a scheme rule (any rule under an @media, @import or sheet whose media
//     mention prefers-color-scheme, at any nesting) is a style rule that
//     sets only paint properties (paintOnly) or custom properties;
//   - every value of a custom property that a scheme rule sets, or that
//     holds light-dark(), is a colour, wherever it is set;
//   - every declaration, of any rule or style attribute, that reads such a
//     custom property (var()) or holds light-dark() sets a paint property
//     or a shorthand in which a colour can only be its colour
//     (colourShorthands): the scheme then changes colours and nothing else;
//   - no element but <style>, <link> and <meta> has a media attribute that
//     mentions prefers-color-scheme (a <picture>'s <source> would change
//     the image, and so its size, with the scheme).
//
// An <img>'s file cannot change the page's layout with the scheme: the
// image's natural size comes from its width, height and viewBox
// attributes, which Chromium reads without the file's CSS (a file whose
// dark rule sets its root's width keeps its natural size in the dark
// scheme; checked on Chromium 156).
const schemeProof = `() => {
  const paint = new Set(` + paintOnly + `);
  const short = new Set(` + colourShorthands + `);
  const scheme = (m) => /prefers-color-scheme/.test(m || '');
  const bad = [];
  // decls splits a declaration block's text into [name, value] pairs, at
  // the semicolons outside quotes and brackets.
  const decls = (text) => {
    const out = []; let depth = 0, quote = '', start = 0;
    for (let i = 0; i <= text.length; i++) {
      const c = text[i];
      if (quote) { if (c === '\\') i++; else if (c === quote) quote = ''; continue; }
      if (c === '"' || c === "'") quote = c;
      else if (c === '(' || c === '[') depth++;
      else if (c === ')' || c === ']') depth--;
      else if ((c === ';' || c === undefined) && depth === 0) {
        const d = text.slice(start, i), k = d.indexOf(':');
        if (k > 0) out.push([d.slice(0, k).trim(), d.slice(k + 1).replace(/!important\s*$/, '').trim()]);
        start = i + 1;
      }
    }
    return out;
  };
  const blocks = [];
  const walk = (rules, inScheme, where) => {
    for (const r of rules) {
      if (r instanceof CSSImportRule) {
        if (r.styleSheet) walk(r.styleSheet.cssRules, inScheme || scheme(r.media.mediaText), where);
        continue;
      }
      const s = inScheme || (r instanceof CSSMediaRule && scheme(r.media.mediaText));
      const own = r instanceof CSSStyleRule || (window.CSSNestedDeclarations && r instanceof CSSNestedDeclarations);
      if (own) blocks.push({text: r.style.cssText, scheme: s, where: (r.selectorText || where) + ' in ' + where});
      else if (s && !(r instanceof CSSGroupingRule)) bad.push(where + ': a ' + r.constructor.name + ' under a prefers-color-scheme query');
      if (r.cssRules) walk(r.cssRules, s, r.selectorText || where);
    }
  };
  [...document.styleSheets].forEach((sh, i) => {
    const where = 'style sheet ' + i;
    try { walk(sh.cssRules, scheme(sh.media.mediaText), where); }
    catch (e) { bad.push(where + ': cannot read its rules (' + e.message + ')'); }
  });
  for (const e of document.querySelectorAll('[style]')) {
    const t = e.getAttribute('style');
    if (t.includes('var(') || t.includes('light-dark(')) blocks.push({text: t, scheme: false, where: 'the style attribute of a <' + e.localName + '>'});
  }
  const dark = new Set();
  for (const b of blocks) for (const [n, v] of decls(b.text)) {
    if (n.startsWith('--') && (b.scheme || v.includes('light-dark('))) dark.add(n);
    else if (b.scheme && !paint.has(n)) bad.push(b.where + ': a prefers-color-scheme rule sets ' + n + ', which is not a paint property');
  }
  for (const b of blocks) for (const [n, v] of decls(b.text)) {
    if (dark.has(n) && !CSS.supports('color', v)) bad.push(b.where + ': ' + n + ', which follows the colour scheme, is set to "' + v + '", not a colour');
    const reads = [...v.matchAll(/var\(\s*(--[\w-]+)/g)].map(m => m[1]).filter(x => dark.has(x));
    if (!reads.length && !v.includes('light-dark(')) continue;
    if (n.startsWith('--') && reads.length) bad.push(b.where + ': ' + n + ' takes its value from ' + reads[0] + ', which follows the colour scheme');
    else if (!n.startsWith('--') && !paint.has(n) && !short.has(n)) bad.push(b.where + ': ' + n + ' reads ' + (reads[0] || 'light-dark()') + ', which follows the colour scheme, and is not a paint property');
  }
  for (const e of document.querySelectorAll('[media]')) {
    if (!['style', 'link', 'meta'].includes(e.localName) && scheme(e.getAttribute('media'))) bad.push('a <' + e.localName + '> whose media follow the colour scheme');
  }
  return bad;
}`

// paintOnly lists, as a JavaScript array, the properties that change how
// a box is painted and never its size or place: colours, their
// opacities, shadows. A prefers-color-scheme rule may set only these.
const paintOnly = `['color', 'background-color', 'fill', 'stroke', 'stop-color', 'flood-color', 'lighting-color',
  'fill-opacity', 'stroke-opacity', 'stop-opacity', 'flood-opacity',
  'border-color', 'border-top-color', 'border-right-color', 'border-bottom-color', 'border-left-color',
  'border-block-color', 'border-inline-color', 'border-block-start-color', 'border-block-end-color',
  'border-inline-start-color', 'border-inline-end-color', 'outline-color', 'text-decoration-color',
  'text-emphasis-color', 'column-rule-color', 'caret-color', 'accent-color', 'box-shadow', 'text-shadow']`

// colourShorthands lists, as a JavaScript array, the shorthands in which a
// colour can only be the colour (of the border, the outline, the
// decoration, the background or a gradient's stop): a custom property
// that holds a colour in both schemes may be read there.
const colourShorthands = `['border', 'border-top', 'border-right', 'border-bottom', 'border-left',
  'border-block', 'border-inline', 'border-block-start', 'border-block-end', 'border-inline-start',
  'border-inline-end', 'outline', 'text-decoration', 'column-rule', 'background']`
