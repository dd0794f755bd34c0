import { useId, type ReactNode, type RefObject } from 'react';
import { ModalBackdrop } from './modal-backdrop';

/**
 * A modal that asks before a destructive action: the title, why it matters, a way back and the action.
 * The caller opens it with `ref.current.showModal()`; Escape and a click outside close it.
 */
export function ConfirmDialog({
  ref,
  title,
  children,
  cancelLabel,
  confirmLabel,
  onConfirm,
}: {
  ref: RefObject<HTMLDialogElement | null>;
  title: string;
  children: ReactNode;
  cancelLabel: string;
  confirmLabel: string;
  onConfirm: () => void;
}) {
  const id = useId();
  return (
    <dialog ref={ref} className="modal" aria-labelledby={`${id}-title`}>
      <div className="modal-box">
        <h3 id={`${id}-title`} className="text-lg font-semibold">
          {title}
        </h3>
        <p className="py-3 text-base-content/80">{children}</p>
        <div className="modal-action">
          <button type="button" className="btn btn-ghost" onClick={() => ref.current?.close()}>
            {cancelLabel}
          </button>
          <button
            type="button"
            className="btn btn-error"
            onClick={() => {
              ref.current?.close();
              onConfirm();
            }}
          >
            {confirmLabel}
          </button>
        </div>
      </div>
      <ModalBackdrop />
    </dialog>
  );
}
