import PlaceOutlined from '@mui/icons-material/PlaceOutlined';
import { EmptyState } from './EmptyState';

/** What a one-site screen shows while All Sites is selected: pick a site first. */
export function ChooseSite({ purpose }: { purpose: string }) {
  return (
    <EmptyState
      icon={<PlaceOutlined sx={{ fontSize: 40, opacity: 0.5 }} />}
      message={`Choose a site in the menu to ${purpose}.`}
    />
  );
}
