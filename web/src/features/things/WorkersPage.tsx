import { Navigate } from 'react-router';
import { useLabels } from '../settings/queries';
import { useSitePath } from '../access/SiteContext';
import { ThingsList } from './ThingsList';

export default function WorkersPage() {
  const labels = useLabels();
  const sitePath = useSitePath();
  // Hidden workers have no list: the menu leaves the entry out, a typed URL goes to items.
  if (labels.hideWorkers) return <Navigate to={sitePath('/items')} replace />;
  return <ThingsList thingClass="worker" />;
}
