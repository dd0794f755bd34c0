import { useId, useState, type FormEvent } from 'react';
import {
  OFFERED_SUMMARY_DEPTHS,
  SUMMARY_LENGTH_STEP,
  SUMMARY_MIN_LENGTH,
  languageCodeSchema,
  summaryDepthSchema,
} from '@mbox/shared/prompts/index';
import { changedSettings, type UserSettings } from '@mbox/shared/user-settings';
import { useSession } from '../../lib/session';
import { PageLoader } from '../../routes/guards';
import { UpgradeCard } from '../premium/upgrade-card';
import { LanguageOptions, TranslationNeedsModel, useTranslationAvailable } from '../summary/language-options';
import { settleLengths } from '../summary/settings-form';
import { formFromSettings, toSettingsUpdate, type SummaryDefaultsForm } from './summary-defaults-form';
import { useUserSettings } from './use-user-settings';

/** Settings › Summary tab (product.md, Screens): the summary defaults, premium only (product.md, Roles). */
export default function SummaryTab() {
  const session = useSession();
  const { settings, loading, saving, save } = useUserSettings();
  if (loading) return <PageLoader />;
  if (!settings) return <p className="text-error">The settings could not be loaded. Reload the page to try again.</p>;
  return (
    <div className="flex max-w-xl flex-col gap-6">
      {!session.premium && <UpgradeCard />}
      {/* Saved values come back from the server: a new key starts the form from them. */}
      <SummaryDefaults
        key={JSON.stringify(formFromSettings(settings))}
        settings={settings}
        disabled={!session.premium || saving}
        saving={saving}
        onSave={(form) => void save(toSettingsUpdate(form))}
      />
    </div>
  );
}

function SummaryDefaults({
  settings,
  disabled,
  saving,
  onSave,
}: {
  settings: UserSettings;
  disabled: boolean;
  saving: boolean;
  onSave: (form: SummaryDefaultsForm) => void;
}) {
  const id = useId();
  const translationAvailable = useTranslationAvailable();
  const [form, setForm] = useState<SummaryDefaultsForm>(() => formFromSettings(settings));
  const update = (patch: Partial<SummaryDefaultsForm>) => setForm((current) => ({ ...current, ...patch }));
  // product.md, Validation: the lengths snap to their rules when an input is left.
  const settle = () => setForm((current) => settleLengths(current));
  const changed = Object.keys(changedSettings(settings, toSettingsUpdate(form))).length > 0;
  const minLength = Number(form.minLength) || SUMMARY_MIN_LENGTH;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const settled = settleLengths(form);
    setForm(settled);
    onSave(settled);
  };

  return (
    <form className="flex flex-col gap-5" onSubmit={submit} noValidate aria-label="Summary settings">
      <fieldset className="fieldset">
        <label className="fieldset-legend" htmlFor={`${id}-depth`}>
          How deep to analyze meetings?
        </label>
        <select
          id={`${id}-depth`}
          className="select w-full"
          value={form.depth}
          disabled={disabled}
          onChange={(e) => update({ depth: summaryDepthSchema.parse(e.target.value) })}
        >
          {OFFERED_SUMMARY_DEPTHS.map((depth) => (
            <option key={depth.value} value={depth.value}>
              {depth.label}
            </option>
          ))}
        </select>
      </fieldset>

      <fieldset className="fieldset">
        <label className="fieldset-legend" htmlFor={`${id}-translate`}>
          Translate to
        </label>
        <select
          id={`${id}-translate`}
          className="select w-full"
          value={form.translateTo}
          disabled={disabled || !translationAvailable}
          onChange={(e) => update({ translateTo: e.target.value === '' ? '' : languageCodeSchema.parse(e.target.value) })}
        >
          <option value="">No translation</option>
          <LanguageOptions />
        </select>
        {translationAvailable ? (
          <span className="label">Summaries are written in this language by default.</span>
        ) : (
          <TranslationNeedsModel className="mt-1" />
        )}
      </fieldset>

      <div className="grid gap-4 sm:grid-cols-2">
        <fieldset className="fieldset">
          <label className="fieldset-legend" htmlFor={`${id}-max`}>
            Max summary length (words)
          </label>
          <input
            id={`${id}-max`}
            type="number"
            inputMode="numeric"
            className="input w-full"
            step={SUMMARY_LENGTH_STEP}
            min={minLength}
            value={form.maxLength}
            disabled={disabled}
            onChange={(e) => update({ maxLength: e.target.value })}
            onBlur={settle}
          />
          <span className="label">0 = no limit</span>
        </fieldset>
        <fieldset className="fieldset">
          <label className="fieldset-legend" htmlFor={`${id}-min`}>
            Min summary length (words)
          </label>
          <input
            id={`${id}-min`}
            type="number"
            inputMode="numeric"
            className="input w-full"
            step={SUMMARY_LENGTH_STEP}
            min={SUMMARY_MIN_LENGTH}
            value={form.minLength}
            disabled={disabled}
            onChange={(e) => update({ minLength: e.target.value })}
            onBlur={settle}
          />
          <span className="label">At least {SUMMARY_MIN_LENGTH}, in steps of {SUMMARY_LENGTH_STEP}</span>
        </fieldset>
      </div>

      <div>
        <button type="submit" className="btn btn-primary" disabled={disabled || !changed}>
          {saving && <span className="loading loading-spinner loading-sm" />}
          Save settings
        </button>
      </div>
    </form>
  );
}
