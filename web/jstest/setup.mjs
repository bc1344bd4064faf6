// What the page's pure modules need of a browser to load their strings in
// Node: fetch reads the translations from web/static, and a document with
// nothing in it takes the language's lang and dir.

import { readFile } from 'node:fs/promises';

const static_ = new URL('../static/', import.meta.url);

globalThis.fetch = async (path) => {
  try {
    const text = await readFile(new URL(String(path).replace(/^\//, ''), static_), 'utf8');
    return { ok: true, status: 200, json: async () => JSON.parse(text), text: async () => text };
  } catch {
    return { ok: false, status: 404 };
  }
};

globalThis.document = { documentElement: {}, querySelectorAll: () => [] };
