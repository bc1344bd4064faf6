// Accounts (docs/API.md, "Accounts and ratings"): the sign-in and sign-up
// dialog the header's button opens, and once signed in the account's menu
// (profile, leaderboards, blocked players, change password, sign out, sign
// out everywhere, delete). It also shows the pages of their own address,
// a profile at /@/NAME (profile.js) and the leaderboards at /leaderboard
// (leaderboard.js), in place of the game. Loaded on demand: a first visit
// does without it. The server decides every rule; a refusal is said from
// its error's code, field and reason, never from its English text.

import { t } from './i18n.js';
import { call } from './api.js';
import { APIError } from './errors.js';
import { announce } from './view.js';
import { $, el, button } from './dom.js';
import { me as who, kept, setMe, onMe, askMe } from './me.js';
import { onLang, SPEEDS, go, pageLink, say, sayText } from './pages.js';

let app = null; // {open(id), fail(e), board()} from nav.js

// init wires the module to the page's controller: open(id) shows game id,
// fail(e) says an error at the board, board() is called when the board is
// shown again (a first visit at a profile's address starts its game then).
export function init(controller) {
  if (app) return;
  app = controller;
  document.head.append(el('link', { rel: 'stylesheet', href: '/css/account.css' }));
  onMe(showWho);
  setMe(kept());
  addEventListener('popstate', () => route());
  // "Your games" opens a game at the board: the board is shown first.
  $('nav-games').addEventListener('click', () => { if (view && !view.hidden) go('/'); }, true);
  route();
}

// showWho shows who is signed in on the header's button; a profile shown
// is drawn again for another (it offers block and report to who is
// signed in).
function showWho(name, was) {
  if (was !== undefined && was !== name && view && !view.hidden) route();
  const b = $('nav-account');
  const shown = b.querySelector('.who');
  b.removeAttribute('data-i18n-label');
  b.setAttribute('aria-label', name ? t('account.menuOf', { name }) : t('account.signIn'));
  shown.textContent = name || t('account.signIn');
  if (name) shown.removeAttribute('data-i18n');
  else shown.dataset.i18n = 'account.signIn';
}
onLang(() => showWho(who(), who()));

// The dialog ---------------------------------------------------------------

let dlg = null;
let body = null;
let shown = null; // the panel drawn, to draw again in another language

function dialog() {
  if (dlg) return dlg;
  body = el('div', { className: 'account-body' });
  dlg = el('dialog', { id: 'account', className: 'account', 'aria-labelledby': 'account-title' }, body);
  document.body.append(dlg);
  onLang(() => { if (dlg.open && shown) shown(); });
  return dlg;
}

// panel draws the dialog's content: a title, then parts.
function panel(titleKey, ...parts) {
  body.textContent = '';
  const h = el('h2', { id: 'account-title', textContent: t(titleKey) });
  body.append(h, ...parts.filter(Boolean));
  if (!dlg.open) dlg.showModal();
}

function closeButton() {
  return button('button.close', () => dlg.close());
}

// field makes a labelled input for a form.
function field(name, key, type, autocomplete) {
  const id = `account-${name}`;
  const input = el('input', { id, name, type, autocomplete, required: true, 'aria-describedby': 'account-error' });
  if (type === 'text') Object.assign(input, { autocapitalize: 'none', spellcheck: false, maxLength: 40, dir: 'auto' }); // a name in any script
  return el('div', { className: 'field' }, el('label', { for: id, textContent: t(key) }), input);
}

// form makes a form of fields whose submit runs go(form), saying what
// went wrong under the fields.
function form(fields, submitKey, go, ...more) {
  const err = el('p', { id: 'account-error', className: 'error', role: 'alert' });
  const submit = el('button', { type: 'submit', className: 'primary', textContent: t(submitKey) });
  const f = el('form', { className: 'account-form', noValidate: true }, ...fields, err,
    el('div', { className: 'dialog-buttons' }, submit, ...more));
  f.onsubmit = async (e) => {
    e.preventDefault();
    for (const i of f.querySelectorAll('input')) i.removeAttribute('aria-invalid');
    err.textContent = '';
    submit.disabled = true;
    try {
      await go(f);
    } catch (x) {
      const s = x.say || say(x);
      err.textContent = sayText(s);
      const input = s.field && f.querySelector(`input[name="${s.field === 'new' ? 'new' : s.field}"]`);
      if (input) {
        input.setAttribute('aria-invalid', 'true');
        input.focus();
      }
    } finally {
      submit.disabled = false;
    }
  };
  return f;
}

// failWith marks error e with what to say of it, for form.
function failWith(e, where) {
  e.say = say(e, where);
  return e;
}

// openMenu opens the dialog: the sign-in form, or the account's menu. It
// asks the server who is signed in, in case that changed elsewhere.
export async function openMenu() {
  dialog();
  if (who()) await askMe().catch(() => { /* said signed in, as known */ });
  if (who()) menu();
  else signIn();
}

// signIn shows the form to sign in, or (create) to make an account.
function signIn(create = false) {
  const draw = () => {
    const other = button(create ? 'account.haveOne' : 'account.newHere', () => signIn(!create), { className: 'linkish' });
    const f = form([
      field('username', 'account.username', 'text', 'username'),
      field('password', 'account.password', 'password', create ? 'new-password' : 'current-password'),
    ], create ? 'account.create' : 'account.signIn', async (fm) => {
      const username = fm.elements.username.value.trim();
      const password = fm.elements.password.value;
      let p;
      try {
        p = await call('POST', create ? '/api/accounts' : '/api/session', { username, password });
      } catch (e) { throw failWith(e, create ? 'create' : 'signin'); }
      setMe(p.username);
      dlg.close();
      announce(t(create ? 'account.created' : 'account.signedIn', { name: p.username }));
    }, button('button.cancel', () => dlg.close()));
    panel(create ? 'account.createTitle' : 'account.signInTitle',
      el('p', { className: 'note', textContent: t('account.why') }), f,
      create ? el('p', { className: 'note', textContent: t('account.rules') }) : null,
      el('p', {}, other), el('p', {}, pageLink('/leaderboard', 'leaders.heading')));
    f.elements.username.focus();
  };
  shown = draw;
  draw();
}

function menu() {
  const draw = () => {
    const list = el('ul', { className: 'account-menu' },
      el('li', {}, pageLink(`/@/${encodeURIComponent(who())}`, 'account.profile')),
      el('li', {}, pageLink('/leaderboard', 'leaders.heading')),
      el('li', {}, button('account.blocks', blocks)),
      el('li', {}, button('account.changePassword', changePassword)),
      el('li', {}, button('account.signOut', () => signOut(false))),
      el('li', {}, button('account.signOutAll', () => signOut(true))),
      el('li', {}, button('account.delete', remove, { className: 'danger' })));
    const err = el('p', { id: 'account-error', className: 'error', role: 'alert' });
    panel('account.menuTitle', el('p', { textContent: t('account.signedInAs', { name: who() }) }), list, err,
      el('div', { className: 'dialog-buttons' }, closeButton()));
    list.querySelector('a').focus();
  };
  shown = draw;
  draw();
}

async function signOut(everywhere) {
  try {
    if (everywhere) await call('DELETE', '/api/sessions');
    await call('DELETE', '/api/session').catch((e) => { if (!(e instanceof APIError && e.code === 'signed_out')) throw e; });
  } catch (e) {
    if (!(e instanceof APIError && e.code === 'signed_out')) { $('account-error').textContent = sayText(say(e)); return; }
  }
  setMe(null);
  dlg.close();
  announce(t(everywhere ? 'account.signedOutAll' : 'account.signedOut'));
  $('nav-account').focus();
}

function changePassword() {
  const draw = () => {
    const f = form([
      field('old', 'account.oldPassword', 'password', 'current-password'),
      field('new', 'account.newPassword', 'password', 'new-password'),
    ], 'account.save', async (fm) => {
      try {
        await call('PUT', '/api/me/password', { old: fm.elements.old.value, new: fm.elements.new.value });
      } catch (e) { throw failWith(e, 'password'); }
      menu();
      $('account-error').textContent = t('account.passwordChanged');
    }, button('account.back', menu));
    panel('account.changePassword', el('p', { className: 'note', textContent: t('account.passwordNote') }), f);
    f.elements.old.focus();
  };
  shown = draw;
  draw();
}

function remove() {
  const draw = () => {
    const f = form([field('password', 'account.password', 'password', 'current-password')], 'account.deleteNow', async (fm) => {
      try {
        await call('DELETE', '/api/me', { password: fm.elements.password.value });
      } catch (e) { throw failWith(e, 'delete'); }
      setMe(null);
      dlg.close();
      announce(t('account.deleted'));
      $('nav-account').focus();
    }, button('account.back', menu));
    panel('account.delete', el('p', { className: 'warn', textContent: t('account.deleteNote') }), f);
    f.elements.password.focus();
  };
  shown = draw;
  draw();
}

async function blocks() {
  let names = null;
  let failed = null;
  const draw = () => {
    const list = el('ul', { className: 'blocks' });
    const err = el('p', { id: 'account-error', className: 'error', role: 'alert', textContent: failed ? sayText(failed) : '' });
    if (names && !names.length) list.append(el('li', { className: 'none', textContent: t('account.noBlocks') }));
    for (const name of names || []) {
      const unblock = el('button', { type: 'button', textContent: t('account.unblock'), 'aria-label': t('account.unblockName', { name }) });
      unblock.onclick = async () => {
        try {
          await call('DELETE', `/api/me/blocks/${encodeURIComponent(name)}`);
          names = names.filter((n) => n !== name);
          failed = null;
          announce(t('account.unblocked', { name }));
          if (view && !view.hidden) route(); // a profile shown offers to block again
          draw();
          body.querySelector('.blocks button, [data-i18n="account.back"]').focus();
        } catch (e) { failed = say(e); draw(); }
      };
      list.append(el('li', {}, pageLink(`/@/${encodeURIComponent(name)}`, null, name, ''), unblock));
    }
    panel('account.blocks', el('p', { className: 'note', textContent: t('account.blocksNote') }), list, err,
      el('div', { className: 'dialog-buttons' }, button('account.back', menu)));
  };
  shown = draw;
  try {
    names = (await call('GET', '/api/me/blocks')).blocks || [];
  } catch (e) { failed = say(e); }
  draw();
  body.querySelector('.blocks button, [data-i18n="account.back"]').focus();
}

// Pages of their own address -------------------------------------------

let view = null;

function pageView() {
  if (!view) {
    view = el('section', { id: 'account-view', className: 'account-view', hidden: true });
    $('game-view').after(view);
  }
  return view;
}

// route shows what the address names: a profile (/@/NAME), the
// leaderboards (/leaderboard/SPEED), or else the game.
export async function route() {
  const v = pageView();
  const path = location.pathname;
  const profile = /^\/@\/([^/]+)\/?$/.exec(path);
  const leaders = /^\/leaderboard(?:\/([a-z]+))?\/?$/.exec(path);
  base(!!(profile || leaders));
  if (!profile && !leaders) {
    if (!v.hidden) {
      v.hidden = true;
      $('game-view').hidden = location.hash === '#howto';
      app.board(); // a game, if none was started at this page's address
    }
    return;
  }
  $('game-view').hidden = true;
  $('howto-view').hidden = true;
  v.hidden = false;
  await strings();
  if (profile) {
    let name = profile[1];
    try { name = decodeURIComponent(name); } catch { /* shown as it is */ }
    (await import('./profile.js')).show(v, name, ctx());
  } else {
    (await import('./leaderboard.js')).show(v, SPEEDS.includes(leaders[1]) ? leaders[1] : 'blitz', ctx());
  }
}

// base has relative addresses resolved as from / while a page of its own
// address is shown (a module loaded then may ask for 'css/x.css'), and
// as from the address itself otherwise (the links to #howto at /?game=…).
function base(on) {
  const b = document.querySelector('base');
  if (on && !b) document.head.prepend(el('base', { href: '/' }));
  if (!on && b) b.remove();
}

// ctx is what the pages need of this module and the page.
function ctx() {
  return { open: openGame };
}

// openGame shows game id at the board, at its own address, as "Your
// games" does: a finished game there can be gone through and reviewed.
function openGame(id) {
  history.pushState(null, '', `/?game=${encodeURIComponent(id)}`);
  route();
  app.open(id);
}

// strings waits for the page's strings (a page opened at a profile's
// address loads this module before i18n.js has them).
function strings() {
  if (t('app.title') !== 'app.title') return Promise.resolve();
  return new Promise((resolve) => {
    const o = new MutationObserver(() => { o.disconnect(); resolve(); });
    o.observe(document.documentElement, { attributes: true, attributeFilter: ['lang'] });
  });
}
