/** The layer behind a daisyUI modal's box: a click on it closes the dialog (a `method="dialog"` form). */
export function ModalBackdrop() {
  return (
    <form method="dialog" className="modal-backdrop">
      <button type="submit" aria-label="Close">
        close
      </button>
    </form>
  );
}
