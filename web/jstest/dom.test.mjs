// The page's DOM builders (js/dom.js): what el sets as attributes and
// what as properties, and a button that keeps its text's key.

import { test } from 'node:test';
import assert from 'node:assert/strict';

// An element that records what is done to it.
class Fake {
  constructor(tag) { Object.assign(this, { tag, attrs: {}, kids: [], dataset: {} }); }
  setAttribute(k, v) { this.attrs[k] = String(v); }
  append(...kids) { this.kids.push(...kids); }
}
globalThis.document = { createElement: (tag) => new Fake(tag), createElementNS: (ns, tag) => Object.assign(new Fake(tag), { ns }) };
const { el, svg, button, setText, visible } = await import('../static/js/dom.js');

test('el sets data-, aria-, role and for as attributes, the rest as properties', () => {
  const e = el('label', { id: 'x', className: 'c', hidden: true, 'data-key': 3, 'aria-label': 'A', role: 'group', for: 'y' }, 'text', null, undefined);
  assert.equal(e.tag, 'label');
  assert.deepEqual({ id: e.id, className: e.className, hidden: e.hidden }, { id: 'x', className: 'c', hidden: true });
  assert.deepEqual(e.attrs, { 'data-key': '3', 'aria-label': 'A', role: 'group', for: 'y' });
  assert.deepEqual(e.kids, ['text']);
});

test('el takes a string as the class name alone', () => {
  const e = el('span', 'who', 'Lan');
  assert.equal(e.className, 'who');
  assert.deepEqual(e.kids, ['Lan']);
  assert.deepEqual(e.attrs, {});
});

test('svg sets every attribute, in the SVG namespace', () => {
  const e = svg('line', { x1: 0, class: 'zero' });
  assert.equal(e.ns, 'http://www.w3.org/2000/svg');
  assert.deepEqual(e.attrs, { x1: '0', class: 'zero' });
});

test('a button keeps the key of its text, and its props', () => {
  const go = () => {};
  const b = button('button.close', go, { id: 'games-close', hidden: true });
  assert.deepEqual({ type: b.type, id: b.id, hidden: b.hidden, onclick: b.onclick, className: b.className }, { type: 'button', id: 'games-close', hidden: true, onclick: go, className: '' });
  assert.equal(b.dataset.i18n, 'button.close');
  assert.equal(b.textContent, 'button.close'); // no strings loaded: the key
});

test('setText and visible write only a change', () => {
  let writes = 0;
  const e = { _t: 'a', get textContent() { return this._t; }, set textContent(v) { writes++; this._t = v; }, hidden: false };
  setText(e, 'a');
  setText(e, 'b');
  assert.equal(writes, 1);
  visible(e, true);
  assert.equal(e.hidden, false);
  visible(e, false);
  assert.equal(e.hidden, true);
});
