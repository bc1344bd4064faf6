// A localStorage of the page's modules' own, in memory: getItem,
// setItem, removeItem, and clear between tests.

const items = new Map();
globalThis.localStorage = {
  getItem: (k) => (items.has(k) ? items.get(k) : null),
  setItem: (k, v) => { items.set(k, String(v)); },
  removeItem: (k) => { items.delete(k); },
  clear: () => items.clear(),
};
