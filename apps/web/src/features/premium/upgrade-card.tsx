import { Link } from 'react-router';

/** Spec §2: what a non-premium user sees in place of a premium control. */
export function UpgradeCard({ to = '/subscribe', className = '' }: { to?: string; className?: string }) {
  return (
    <div className={`card border border-warning/40 bg-warning/10 ${className}`} data-testid="upgrade-card">
      <div className="card-body gap-2 p-4">
        <h3 className="card-title text-base">Premium Feature</h3>
        <p className="text-sm text-base-content/70">Upgrade to premium to unlock more features</p>
        <div className="card-actions justify-end">
          <Link to={to} className="btn btn-warning btn-sm">
            Upgrade
          </Link>
        </div>
      </div>
    </div>
  );
}
