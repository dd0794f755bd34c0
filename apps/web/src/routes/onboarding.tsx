import { Page } from './page';

/** /onboarding and /onboarding/:step (spec §2): welcome, join-meeting, security, summary. */
export default function OnboardingPage() {
  return <Page title="Onboarding" />;
}
