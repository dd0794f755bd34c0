import { useParams } from 'react-router';
import { SharedMeeting } from '../features/share/shared-meeting';
import NotFoundPage from './not-found';

/** /shared/:token: a meeting shared read-only, no sign-in; unknown or revoked links get the 404 page. */
export default function SharedPage() {
  const { token = '' } = useParams();
  return <SharedMeeting token={token} notFound={<NotFoundPage />} />;
}
