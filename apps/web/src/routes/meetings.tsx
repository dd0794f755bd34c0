import { useParams } from 'react-router';
import { MeetingScreen } from '../features/meetings/meeting-screen';

/** Routes / and /:id (product.md, Screens). */
export default function MeetingsPage() {
  const { id } = useParams();
  return <MeetingScreen meetingId={id} />;
}
