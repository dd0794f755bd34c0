import { PublicLanding } from '../features/tools/public-landing';

/** /public (product.md, Screens): tools landing and pricing, no login. */
export default function PublicPage() {
  return <PublicLanding />;
}
