import { PublicLanding } from '../features/tools/public-landing';

/** /public (spec §2): tools landing and pricing, no login. */
export default function PublicPage() {
  return <PublicLanding />;
}
