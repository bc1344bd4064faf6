// Translations: flat "key": "text" files under i18n/ with {placeholders},
// English for a missing key, plurals as key_one, key_other… chosen with
// Intl.PluralRules.

const RTL = new Set(['fa']);
const STORE_KEY = 'oanquan.lang';

let lang = 'en';
let dict = {};
let en = {};
let numberFormat = new Intl.NumberFormat('en');
let pluralRules = new Intl.PluralRules('en');
let listFormats = listFormatsFor('en');

// listFormatsFor returns the formats list uses, for language code.
function listFormatsFor(code) {
  return {
    unit: new Intl.ListFormat(code, { style: 'short', type: 'unit' }),
    and: new Intl.ListFormat(code, { style: 'long', type: 'conjunction' }),
  };
}

async function load(code) {
  const res = await fetch(`/i18n/${code}.json`);
  if (!res.ok) throw new Error(`${code}: ${res.status}`);
  return res.json();
}

// preferred returns the remembered language, else the browser's first
// supported one, else English.
export function preferred() {
  const known = new Set([...document.querySelectorAll('#lang option')].map((o) => o.value));
  let saved = null;
  try { saved = localStorage.getItem(STORE_KEY); } catch { /* storage off */ }
  if (saved && known.has(saved)) return saved;
  for (const l of navigator.languages || [navigator.language || 'en']) {
    const base = l.toLowerCase().split('-')[0];
    if (known.has(base)) return base;
  }
  return 'en';
}

// setLang loads code's strings, remembers the choice and sets the page's
// lang and dir. The board keeps its left-to-right layout (see CSS).
export async function setLang(code) {
  if (!Object.keys(en).length) en = await load('en');
  let d = en;
  if (code !== 'en') {
    try { d = await load(code); } catch { d = {}; }
  }
  lang = code;
  dict = d;
  numberFormat = new Intl.NumberFormat(code);
  listFormats = listFormatsFor(code);
  pluralRules = new Intl.PluralRules(code);
  try { localStorage.setItem(STORE_KEY, code); } catch { /* storage off */ }
  document.documentElement.lang = code;
  document.documentElement.dir = RTL.has(code) ? 'rtl' : 'ltr';
  translateDOM(document);
}

export function currentLang() { return lang; }

// num formats a number in the page's language (Persian digits in fa).
export function num(n) { return numberFormat.format(n); }

// list joins items as the page's language writes a list (Persian with
// "،"): kind 'unit' for a run of values ("5, 5, 0"), 'and' for a
// conjunction ("2 and 7").
export function list(items, kind = 'unit') { return listFormats[kind].format(items); }

function fill(text, params) {
  return text.replace(/\{(\w+)\}/g, (m, k) => {
    if (!(k in params)) return m;
    const v = params[k];
    return typeof v === 'number' ? num(v) : String(v);
  });
}

// t returns the text for key with {placeholders} filled in.
export function t(key, params = {}) {
  const text = dict[key] ?? en[key] ?? key;
  return fill(text, params);
}

// plural returns the plural form of key for n, with {n} and params filled.
export function plural(key, n, params = {}) {
  const cat = pluralRules.select(n);
  const p = { n, ...params };
  for (const k of [`${key}_${cat}`, `${key}_other`]) {
    if (k in dict) return fill(dict[k], p);
  }
  const enKey = n === 1 ? `${key}_one` : `${key}_other`;
  return fill(en[enKey] ?? en[`${key}_other`] ?? key, p);
}

// translateDOM fills elements marked data-i18n (text) and data-i18n-label
// (aria-label) under root.
export function translateDOM(root) {
  for (const el of root.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll('[data-i18n-label]')) el.setAttribute('aria-label', t(el.dataset.i18nLabel));
}
