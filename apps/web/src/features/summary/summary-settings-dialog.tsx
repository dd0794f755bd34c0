import { useEffect, useId, useRef, useState } from 'react';
import {
  OFFERED_SUMMARY_DEPTHS,
  SUMMARY_LENGTH_STEP,
  SUMMARY_MIN_LENGTH,
  summaryDepthSchema,
  type SummarySettingsInput,
} from '@mbox/shared/prompts/index';
import { INITIAL_SETTINGS_FORM, settleLengths, toSummarySettings, type SettingsForm, type SettingsResult } from './settings-form';
import { ModalBackdrop } from '../ui/modal-backdrop';

type FieldErrors = Extract<SettingsResult, { ok: false }>['errors'];

/**
 * product.md, Screens summary settings dialog (premium): depth, and min/max length behind the length-control
 * toggle, applied by regenerating the shown summary (PUT /v1/p/prompts/{summaryKey}).
 */
export function SummarySettingsDialog({
  open,
  onClose,
  onApply,
}: {
  open: boolean;
  onClose: () => void;
  onApply: (settings: SummarySettingsInput) => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [form, setForm] = useState<SettingsForm>(INITIAL_SETTINGS_FORM);
  const [errors, setErrors] = useState<FieldErrors>({});
  const id = useId();

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) element.showModal();
    if (!open && element.open) element.close();
  }, [open]);

  const update = (patch: Partial<SettingsForm>) => {
    setForm((current) => ({ ...current, ...patch }));
    setErrors({});
  };
  const settle = () => setForm((current) => settleLengths(current));

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const settled = settleLengths(form);
    setForm(settled);
    const result = toSummarySettings(settled);
    if (!result.ok) {
      setErrors(result.errors);
      return;
    }
    onApply(result.settings);
  };

  const minLength = Number(form.minLength) || SUMMARY_MIN_LENGTH;

  return (
    <dialog ref={dialog} className="modal" onClose={onClose} aria-labelledby={`${id}-title`}>
      <form className="modal-box flex max-w-md flex-col gap-4" onSubmit={submit} noValidate>
        <h3 id={`${id}-title`} className="text-lg font-semibold">
          Summary settings
        </h3>

        <label className="flex flex-col gap-1">
          <span className="text-sm font-medium">How deep to analyze meetings?</span>
          <select
            className="select w-full"
            value={form.depth}
            onChange={(e) => update({ depth: summaryDepthSchema.parse(e.target.value) })}
          >
            {OFFERED_SUMMARY_DEPTHS.map((depth) => (
              <option key={depth.value} value={depth.value}>
                {depth.label}
              </option>
            ))}
          </select>
        </label>

        <label className="flex cursor-pointer items-center justify-between gap-3 rounded-box border border-base-300 px-3 py-2">
          <span className="flex flex-col">
            <span className="text-sm font-medium">Control summary length</span>
            <span className="text-xs text-base-content/70">Off: the summary takes the length it needs</span>
          </span>
          <input
            type="checkbox"
            className="toggle toggle-primary"
            checked={form.lengthControl}
            onChange={(e) => update({ lengthControl: e.target.checked })}
          />
        </label>

        <div className="grid grid-cols-2 gap-3">
          <label className="flex flex-col gap-1">
            <span className="text-sm font-medium">Min length (words)</span>
            <input
              type="number"
              className={`input w-full ${errors.minLength ? 'input-error' : ''}`}
              step={SUMMARY_LENGTH_STEP}
              min={SUMMARY_MIN_LENGTH}
              value={form.minLength}
              disabled={!form.lengthControl}
              onChange={(e) => update({ minLength: e.target.value })}
              onBlur={settle}
            />
            <span className="text-xs text-error">{errors.minLength}</span>
          </label>
          <label className="flex flex-col gap-1">
            <span className="text-sm font-medium">Max length (words)</span>
            <input
              type="number"
              className={`input w-full ${errors.maxLength ? 'input-error' : ''}`}
              step={SUMMARY_LENGTH_STEP}
              min={minLength}
              value={form.maxLength}
              disabled={!form.lengthControl}
              onChange={(e) => update({ maxLength: e.target.value })}
              onBlur={settle}
            />
            <span className={`text-xs ${errors.maxLength ? 'text-error' : 'text-base-content/70'}`}>
              {errors.maxLength ?? '0 = no limit'}
            </span>
          </label>
        </div>

        <div className="modal-action mt-0">
          <button type="button" className="btn btn-ghost" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="btn btn-primary">
            Regenerate
          </button>
        </div>
      </form>
      <ModalBackdrop />
    </dialog>
  );
}
