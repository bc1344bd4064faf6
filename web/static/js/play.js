// A turn's events (docs/API.md) applied to the model on screen, each with
// its message. The server decided everything; this only shows it.

import { t, plural } from './i18n.js';
import { LEFT, isMandarin, squareOf } from './board.js';

// modelOf copies what a GameState shows into a model that events change.
export function modelOf(state) {
  return {
    cells: state.cells.slice(),
    stones: state.stones.slice(),
    stores: state.stores.map((s) => ({ ...s })),
  };
}

// DELAYS are the pauses after each kind of event, in milliseconds, at
// normal speed; fast divides them by four.
const DELAYS = { pickup: 380, drop: 260, relay: 520, capture: 900, stop: 800, exchange: 900, borrow: 1000, refill: 1000, end: 600 };

export function delayFor(kind, speed) {
  if (speed === 'off') return 0;
  const d = DELAYS[kind] ?? 400;
  return speed === 'fast' ? Math.round(d / 4) : d;
}

function cellName(c) {
  if (isMandarin(c)) return t(c === LEFT ? 'mandarin.left' : 'mandarin.right');
  return squareOf(c);
}

// applyEvent changes model as ev says (a store's points, when the state
// gave them, as docs/API.md says the events change them) and returns {message, active, hand,
// mark}: message a function saying it in the current language, or null;
// mark 'start', 'path' or 'capture'. name(p) names a player, you(p) says
// whether p is the person at this page (against the computer or a friend
// online), ai whether the computer plays.
export function applyEvent(model, ev, name, hand, you = () => false, ai = false) {
  const c = ev.cell;
  const p = ev.player;
  const out = { message: null, active: c >= 0 ? c : null, hand, mark: null };
  const store = model.stores[p] || { pebbles: 0, mandarins: 0, debt: 0 };
  switch (ev.kind) {
    case 'pickup':
      model.cells[c] = 0;
      out.hand = ev.count;
      out.mark = 'start';
      out.message = () => t('msg.pickup', { pebbles: plural('pebbles', ev.count), square: cellName(c) });
      break;
    case 'drop':
      model.cells[c] = ev.count;
      out.hand = Math.max(0, hand - 1);
      out.mark = 'path';
      break;
    case 'relay':
      model.cells[c] = 0;
      out.hand = ev.count;
      out.mark = 'path';
      out.message = () => t('msg.relay', { pebbles: plural('pebbles', ev.count), square: cellName(c) });
      break;
    case 'capture':
      model.cells[c] = 0;
      if (ev.stone) model.stones[c === LEFT ? 0 : 1] = false;
      store.pebbles += ev.count;
      if (ev.stone) store.mandarins += 1;
      if (store.points !== undefined) store.points += ev.points;
      out.hand = 0;
      out.mark = 'capture';
      out.message = () => (ev.stone
        ? t('msg.mandarinCaptured', { points: plural('points', ev.points) })
        : plural('msg.captured', ev.count));
      break;
    case 'stop':
      out.hand = 0;
      out.message = () => t('stop.' + ev.reason);
      break;
    case 'exchange':
      store.mandarins = Math.max(0, store.mandarins - 1);
      store.pebbles += ev.count;
      out.active = null;
      out.message = () => you(p) ? t('msg.youExchange') : t('msg.exchange', { name: name(p) });
      break;
    case 'borrow': {
      const other = model.stores[1 - p];
      if (other) other.pebbles = Math.max(0, other.pebbles - ev.count);
      store.pebbles += ev.count;
      store.debt += ev.count;
      out.active = null;
      out.message = () => {
        const pebbles = plural('pebbles', ev.count);
        // By name (names.js), or a friend.
        const other = name(you(p) ? 1 - p : p);
        const named = other === t('player.friend') ? '' : 'lobby.';
        if (you(p)) return t(ai ? 'msg.youBorrow' : named + 'msg.youBorrowFriend', { pebbles, name: other });
        if (ai) return t('msg.computerBorrow', { pebbles });
        if (you(1 - p)) return t(named + 'msg.friendBorrow', { pebbles, name: other });
        return t('msg.borrow', { name: name(p), pebbles, other: name(1 - p) });
      };
      break;
    }
    case 'refill': {
      for (const rc of ev.cells) model.cells[rc] += 1;
      store.pebbles = Math.max(0, store.pebbles - ev.cells.length);
      if (store.points !== undefined) store.points -= ev.cells.length; // the pebbles put on the row
      out.active = null;
      out.message = () => you(p) ? t('msg.youRefill') : t('msg.refill', { name: name(p) });
      break;
    }
    case 'end':
      out.active = null;
      out.message = () => t('end.' + ev.reason);
      break;
    default:
      out.active = null;
  }
  return out;
}

// important says whether an event's message belongs in the spoken
// summary of a turn (pickups and relays are left to the visible log).
export function important(kind) {
  return kind !== 'pickup' && kind !== 'relay' && kind !== 'drop';
}
