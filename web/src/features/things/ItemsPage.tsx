import { ThingsList } from './ThingsList';

export default function ItemsPage() {
  return <ThingsList thingClass="item" />;
}
