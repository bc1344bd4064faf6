// askDialog opens a modal <dialog> and resolves to true when yes is
// pressed, false for no or Esc. Focus starts on no, the safe answer.
export function askDialog(dlg, yes, no) {
  return new Promise((resolve) => {
    const done = (v) => { dlg.close(); resolve(v); };
    yes.onclick = () => done(true);
    no.onclick = () => done(false);
    dlg.oncancel = (e) => { e.preventDefault(); done(false); };
    dlg.showModal();
    no.focus();
  });
}
