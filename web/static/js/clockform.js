// The new game's clock, in the new-game dialog (docs/API.md, "Clocks"):
// none, a preset or custom real-time control, or days per move; a
// refusal of the server's said by the field to fix, the dialog kept open.

import { t, plural, translateDOM } from './i18n.js';
import { api } from './api.js';
import { APIError } from './errors.js';
import { $, setText } from './dom.js';
import { controlText } from './clocks.js';

// submit takes the new-game dialog's submit event (newgame.js): a game
// with a clock the server may refuse keeps the dialog open, and the
// refusal is said there (createClocked); app.open(id) shows the game
// made, app.fail(e) says another failure.
export async function submit(e, app) {
  const f = $('newgame-form');
  const body = clockBody(readClock(f));
  if (e.submitter?.value !== 'start' || f.elements.mode.value !== 'online' || !body) return;
  e.preventDefault();
  const first = f.elements.first.value;
  const variants = [...f.querySelectorAll('input[name=variant]:checked')].map((b) => b.value);
  try {
    const st = await createClocked({ mode: 'online', first: first === 'random' ? first : Number(first), variants, clock: body });
    if (!st) return;
    $('newgame').close('made');
    app.open(st.id);
  } catch (err) {
    $('newgame').close('failed');
    app.fail(err);
  }
}

// clockForm returns the new-game dialog's clock choice, built once
// (before the rule options) and translated.
function clockForm() {
  let box = $('newgame-clock');
  if (!box) {
    const tpl = document.createElement('template');
    tpl.innerHTML = CLOCK_FORM;
    box = tpl.content.firstElementChild;
    document.querySelector('#newgame-form .variants').before(box);
    $('newgame-form').noValidate = true; // the server says what it takes
    translateDOM(box);
    box.addEventListener('input', () => clockError(''));
  }
  return box;
}

const CLOCK_FORM = `<fieldset class="choices clock-choice" id="newgame-clock" hidden><legend data-i18n="clock.label"></legend>
      <label><input type="radio" name="clock" value="none"> <span data-i18n="clock.none"></span></label>
      <label><input type="radio" name="clock" value="realtime"> <span data-i18n="clock.realtime"></span></label>
      <label><input type="radio" name="clock" value="days"> <span data-i18n="clock.correspondence"></span></label>
      <div class="clock-more" id="clock-realtime" hidden>
        <label class="field"><span data-i18n="clock.preset"></span>
          <select name="preset" id="clock-preset"><option value="60+0"></option><option value="180+2"></option><option value="300+3"></option><option value="600+5"></option><option value="900+10"></option><option value="1800+0"></option><option value="custom" data-i18n="clock.custom"></option></select></label>
        <div class="clock-custom" id="clock-custom" hidden>
          <label class="field"><span data-i18n="clock.minutesLabel"></span> <input type="number" name="minutes" id="clock-minutes" inputmode="decimal" step="any" aria-describedby="clock-error"></label>
          <label class="field"><span data-i18n="clock.incrementLabel"></span> <input type="number" name="increment" id="clock-increment" inputmode="numeric" step="any" aria-describedby="clock-error"></label>
        </div>
      </div>
      <div class="clock-more" id="clock-days" hidden>
        <label class="field"><span data-i18n="clock.daysLabel"></span>
          <select name="days" id="clock-days-select"><option value="1"></option><option value="3"></option><option value="7"></option><option value="14"></option></select></label>
      </div>
      <p id="clock-error" class="clock-error" role="alert" hidden></p>
    </fieldset>`;

// CLOCK is the clock's settings until the player chooses: no clock; a
// preset "initial+increment" in seconds, or custom minutes and increment;
// days per move.
const CLOCK = { kind: 'none', preset: '180+2', minutes: 5, increment: 3, days: 3 };

// fillClock sets the dialog's clock choice from the settings' clock c.
export function fillClock(f, c) {
  clockForm();
  c = { ...CLOCK, ...c };
  f.elements.clock.value = c.kind;
  f.elements.preset.value = c.preset;
  f.elements.minutes.value = c.minutes;
  f.elements.increment.value = c.increment;
  f.elements.days.value = String(c.days);
  clockError('');
}

// syncClock shows the clock choice (on: a game online) and what the
// kind chosen asks for, in the page's language.
export function syncClock(f, on) {
  clockForm().hidden = !on;
  const kind = f.elements.clock.value;
  $('clock-realtime').hidden = kind !== 'realtime';
  $('clock-custom').hidden = kind !== 'realtime' || f.elements.preset.value !== 'custom';
  $('clock-days').hidden = kind !== 'days';
  for (const o of $('clock-preset').options) {
    if (o.value === 'custom') continue;
    const [initial, increment] = o.value.split('+').map(Number);
    setText(o, controlText({ initial, increment }));
  }
  for (const o of $('clock-days-select').options) setText(o, plural('clock.daysPerMove', Number(o.value)));
}

// readClock reads the dialog's clock choice, as the settings keep it.
export function readClock(f) {
  clockForm();
  return {
    kind: f.elements.clock.value || 'none', preset: f.elements.preset.value,
    minutes: f.elements.minutes.value, increment: f.elements.increment.value, days: Number(f.elements.days.value),
  };
}

// clockBody is the "clock" of a new online game's request (docs/API.md,
// "Clocks") from the settings' clock c: undefined for none, a preset or
// the minutes and seconds as entered (the server says what it takes), or
// days per move.
export function clockBody(c) {
  if (!c || c.kind === 'none') return undefined;
  if (c.kind === 'days') return { days: Number(c.days) };
  if (c.preset !== 'custom') {
    const [initial, increment] = c.preset.split('+').map(Number);
    return { initial, increment };
  }
  return { initial: Math.round(Number(c.minutes) * 60 * 1000) / 1000, increment: Number(c.increment) };
}

// clockError says, in the dialog, what is wrong with the clock chosen
// ('' for nothing).
function clockError(text) {
  setText($('clock-error'), text);
  $('clock-error').hidden = !text;
}

// clockProblem turns the server's refusal of a clock (400, naming the
// field and its range as data: error.field, reason, min, max) into the
// page's words and the field to fix; null for another refusal. The
// English message is never read.
function clockProblem(e) {
  const d = e instanceof APIError && e.status === 400 ? e.detail || {} : {};
  const name = /^clock(?:\.(initial|increment|days))?$/.exec(d.field || '');
  if (!name) return null;
  const field = { initial: 'clock-minutes', increment: 'clock-increment', days: 'clock-days-select' }[name[1]] || 'clock-preset';
  const range = d.reason === 'out_of_range' && typeof d.min === 'number' && typeof d.max === 'number';
  if (name[1] === 'initial' && range) return { text: t('clock.badInitial', { min: d.min / 60, max: d.max / 60 }), field };
  if (name[1] === 'increment' && range) return { text: t('clock.badIncrement', { min: d.min, max: d.max }), field };
  if (name[1] === 'days') return { text: t('clock.badDays'), field };
  return { text: t(name[1] && d.reason === 'not_whole' ? 'clock.whole' : 'clock.bad'), field };
}

// createClocked creates the clocked game of opts (its request's body)
// for the new-game dialog: null when the clock is refused — an empty
// field, or the server's refusal — which is then said in the dialog by
// the field to fix; another failure is thrown.
export async function createClocked(opts) {
  const f = $('newgame-form');
  const c = readClock(f);
  if (c.kind === 'realtime' && c.preset === 'custom') {
    for (const [name, key] of [['minutes', 'clock.enterMinutes'], ['increment', 'clock.enterIncrement']]) {
      if (String(c[name]).trim() === '' || !Number.isFinite(Number(c[name]))) { clockError(t(key)); $('clock-' + name).focus(); return null; }
    }
  }
  const start = $('newgame-start');
  if (start.disabled) return null;
  start.disabled = true;
  try {
    return await api.create(opts);
  } catch (e) {
    const bad = clockProblem(e);
    if (!bad) throw e;
    clockError(bad.text);
    $(bad.field).focus();
    return null;
  } finally { start.disabled = false; }
}
