import { dismissToast, useToasts } from '../../lib/toast';

/** product.md, Screens: the toast area showing an error or a success message. */
export function Toaster() {
  const toasts = useToasts();
  if (toasts.length === 0) return null;
  return (
    <div className="toast toast-end toast-bottom z-50" role="region" aria-label="Notifications">
      {toasts.map((t) => (
        <div
          key={t.id}
          role={t.kind === 'error' ? 'alert' : 'status'}
          className={`alert ${t.kind === 'error' ? 'alert-error' : 'alert-success'} shadow-lg`}
          data-testid="toast"
        >
          <span>{t.message}</span>
          <button type="button" className="btn btn-ghost btn-xs" aria-label="Dismiss" onClick={() => dismissToast(t.id)}>
            ✕
          </button>
        </div>
      ))}
    </div>
  );
}
