// The page's DOM builders and writers, for every module that makes or
// changes elements: el and svg make them, button one that says a text
// kept in the page's language; setText, setAttr and visible change the
// page only when the value differs (a write of the same text still costs
// the browser a new layout).

import { t } from './i18n.js';

export const $ = (id) => document.getElementById(id);

// el makes an element: props are set as properties, but for data-,
// aria-, role and for, which are attributes (a string is the class name
// alone); kids (nodes or text, null and undefined left out) are appended.
export function el(tag, props = {}, ...kids) {
  const e = document.createElement(tag);
  if (typeof props === 'string') props = { className: props };
  for (const [k, v] of Object.entries(props)) {
    if (/^(data-|aria-|role$|for$)/.test(k)) e.setAttribute(k, v);
    else e[k] = v;
  }
  e.append(...kids.filter((k) => k !== null && k !== undefined));
  return e;
}

// svg makes an SVG element with attributes.
export function svg(tag, attrs = {}, ...kids) {
  const e = document.createElementNS('http://www.w3.org/2000/svg', tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  e.append(...kids);
  return e;
}

// button makes a button saying key's text (data-i18n: kept in the page's
// language), with more props (id, className, hidden).
export function button(key, onclick, props = {}) {
  const b = el('button', { type: 'button', className: '', ...props, onclick, textContent: t(key) });
  b.dataset.i18n = key;
  return b;
}

export function setText(e, v) { if (e.textContent !== v) e.textContent = v; }
export function setAttr(e, name, v) { if (e.getAttribute(name) !== v) e.setAttribute(name, v); }
// visible shows e or hides it.
export function visible(e, on) { if (e.hidden === on) e.hidden = !on; }
