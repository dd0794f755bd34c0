import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { REFERRAL_SUCCESS, REFERRAL_SUCCESS_DURATION_MS } from '@mbox/shared/ui-messages';
import { ExtensionStatus } from '../features/extension/extension-status';
import { toast } from '../lib/toast';
import { trpc } from '../lib/trpc';
import { redirectTarget } from './guards';

/** product.md, Screens: the onboarding steps, in order. */
export const ONBOARDING_STEPS = ['welcome', 'join-meeting', 'security', 'summary'] as const;
type Step = (typeof ONBOARDING_STEPS)[number];

const STEP_CONTENT: Record<Step, { title: string; text: string }> = {
  welcome: {
    title: 'Welcome to Mbox',
    text: 'Mbox keeps a live transcript of your Google Meet calls and turns it into summaries.',
  },
  'join-meeting': {
    title: 'Join a meeting',
    text: 'Join any Google Meet call with the Mbox extension installed and turn on captions: the transcript appears here while people speak.',
  },
  security: {
    title: 'Security',
    text: 'Only the captions are read. No audio and no video are recorded or stored.',
  },
  summary: {
    title: 'Summaries',
    text: 'Open a meeting to read its transcript and generate summaries, translations and answers.',
  },
};

function isStep(value: string | undefined): value is Step {
  return ONBOARDING_STEPS.some((step) => step === value);
}

/** /onboarding and /onboarding/:step (product.md, Screens / States). */
export default function OnboardingPage() {
  const params = useParams();
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const utils = trpc.useUtils();
  const complete = trpc.settings.completeOnboarding.useMutation({ meta: { silent: true } });
  const acceptReferral = trpc.referral.accept.useMutation();

  const step: Step = isStep(params.step) ? params.step : 'welcome';
  const index = ONBOARDING_STEPS.indexOf(step);
  const previous = ONBOARDING_STEPS[index - 1];
  const next = ONBOARDING_STEPS[index + 1];
  const query = search.toString() ? `?${search.toString()}` : '';
  const content = STEP_CONTENT[step];

  // docs/product.md, "Other pages": complete onboarding, then accept a referral code from the query,
  // then go to / (or to the page asked for before sign-in, the redirect parameter).
  const finish = async () => {
    try {
      const saved = await complete.mutateAsync();
      utils.settings.get.setData(undefined, saved);
    } catch (error) {
      console.warn('[mbox] completing onboarding failed', error);
      return;
    }
    const code = search.get('code')?.trim();
    if (code) {
      try {
        const { status } = await acceptReferral.mutateAsync({ code });
        await utils.settings.get.invalidate();
        if (status === 'accepted') toast.success(REFERRAL_SUCCESS, REFERRAL_SUCCESS_DURATION_MS);
      } catch {
        // The error toast is already shown by the shared handler.
      }
    }
    navigate(redirectTarget(query) ?? '/', { replace: true });
  };

  const busy = complete.isPending || acceptReferral.isPending;

  return (
    <div className="hero min-h-full bg-base-200">
      <div className="hero-content w-full max-w-xl flex-col">
        <ul className="steps w-full">
          {ONBOARDING_STEPS.map((s, i) => (
            <li key={s} className={`step ${i <= index ? 'step-primary' : ''}`} />
          ))}
        </ul>
        <div className="card w-full bg-base-100 shadow-xl">
          <div className="card-body items-center text-center">
            <h1 className="card-title text-2xl">{content.title}</h1>
            <p>{content.text}</p>
            {/* Whether the extension is connected ("Connected" once it has its token), else the way to it. */}
            {step === 'join-meeting' && <ExtensionStatus />}
            <div className="card-actions mt-4 w-full items-center justify-between">
              {previous ? (
                <Link to={`/onboarding/${previous}${query}`} className="btn btn-circle btn-ghost" aria-label="Back">
                  ←
                </Link>
              ) : (
                <span className="w-12" />
              )}
              {next ? (
                <Link to={`/onboarding/${next}${query}`} className="btn btn-circle btn-primary" aria-label="Next">
                  →
                </Link>
              ) : (
                <button
                  type="button"
                  className="btn btn-circle btn-primary"
                  aria-label="Next"
                  disabled={busy}
                  onClick={() => void finish()}
                >
                  →
                </button>
              )}
            </div>
          </div>
        </div>
        <button type="button" className="btn btn-link" disabled={busy} onClick={() => void finish()}>
          Skip onboarding
        </button>
      </div>
    </div>
  );
}
