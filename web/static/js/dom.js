// The page's DOM builders and writers: el, svg and button make elements;
// setText, setAttr and visible write only a change (a write of the same
// text still costs the browser a new layout).

import { t } from './i18n.js';

export const $ = (id) => document.getElementById(id);

// el makes an element: props are properties, but data-, aria-, role and
// for attributes (a string: the class name); kids, but null and
// undefined, are appended.
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

// button makes a button saying key's text in the page's language.
export function button(key, onclick, props = {}) {
  const b = el('button', { type: 'button', className: '', ...props, onclick, textContent: t(key) });
  b.dataset.i18n = key;
  return b;
}

export function setText(e, v) { if (e.textContent !== v) e.textContent = v; }
export function setAttr(e, name, v) { if (e.getAttribute(name) !== v) e.setAttribute(name, v); }
export function visible(e, on) { if (e.hidden === on) e.hidden = !on; }
