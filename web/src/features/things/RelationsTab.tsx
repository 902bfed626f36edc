import AddLink from '@mui/icons-material/AddLink';
import Close from '@mui/icons-material/Close';
import LinkIcon from '@mui/icons-material/Link';
import LinkOff from '@mui/icons-material/LinkOff';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Tooltip from '@mui/material/Tooltip';
import SearchIcon from '@mui/icons-material/Search';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { errorText } from '../../api/client';
import type { Thing } from '../../api/types';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { EmptyState } from '../../components/EmptyState';
import { LoadFailure } from '../../components/LoadFailure';
import { Loading } from '../../components/Loading';
import { useSnackbar } from '../../components/Snackbar';
import { SEARCH_DEBOUNCE_MS, SEARCH_MIN_CHARS } from '../../constants';
import { useSiteNavigate } from '../access/SiteContext';
import { fetchThing, getThing, putThing, thingKeys, useRelated, useThingSearch } from './queries';
import { planLink, planUnlink, tagDisplay, type Relation } from './thingLogic';

function useDebounced(text: string): string {
  const [value, setValue] = useState(text);
  useEffect(() => {
    const timer = window.setTimeout(() => {
      const trimmed = text.trim();
      if (trimmed === '' || trimmed.length >= SEARCH_MIN_CHARS) setValue(trimmed);
    }, SEARCH_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [text]);
  return value;
}

function withParents(thing: Thing, parents: string[]): Thing {
  return { ...thing, common: { ...thing.common, parents } };
}

function ThingRow({
  thing,
  action,
}: {
  thing: Thing;
  action: { label: string; icon: ReactNode; onClick: () => void; disabled?: boolean };
}) {
  const navigate = useSiteNavigate();
  const details = [thing.common.serial, tagDisplay(thing.common, thing.state?.alarmTamper)]
    .filter(Boolean)
    .join(' · ');
  return (
    <ListItem
      disablePadding
      divider
      data-testid="relation-row"
      secondaryAction={
        <Tooltip title={action.label}>
          <span>
            <IconButton
              edge="end"
              aria-label={action.label}
              onClick={action.onClick}
              disabled={action.disabled}
            >
              {action.icon}
            </IconButton>
          </span>
        </Tooltip>
      }
    >
      <ListItemButton onClick={() => void navigate(`/things/${thing._id}`)} sx={{ pr: 7 }}>
        <ListItemText
          primary={thing.common.name || '(no name)'}
          secondary={details || undefined}
          slotProps={{ primary: { noWrap: true }, secondary: { noWrap: true } }}
        />
      </ListItemButton>
    </ListItem>
  );
}

/** Parents/Children: the linked things, the link search mode, and unlinking. */
export function RelationsTab({ thing, canModify }: { thing: Thing; canModify: boolean }) {
  const [relation, setRelation] = useState<Relation>('children');
  const [adding, setAdding] = useState(false);
  const [text, setText] = useState('');
  const search = useDebounced(text);
  const [pending, setPending] = useState<Thing | null>(null);
  const [busy, setBusy] = useState(false);
  const client = useQueryClient();
  const snackbar = useSnackbar();
  const related = useRelated(thing._id, relation);
  const found = useThingSearch(thing.site, search, adding);
  const singular = relation === 'children' ? 'child' : 'parent';

  const refresh = async () => {
    await client.invalidateQueries({ queryKey: thingKeys.all });
  };

  const link = async (other: Thing) => {
    setBusy(true);
    try {
      const [self, fresh] = await Promise.all([getThing(thing._id), getThing(other._id)]);
      const plan = planLink(relation, self, fresh);
      if (plan.kind === 'refuse') {
        snackbar.error(plan.message);
        return;
      }
      await putThing(withParents(plan.target === 'self' ? self : fresh, plan.parents));
      snackbar.notify(plan.message);
      await refresh();
    } catch (err) {
      snackbar.error(`Save failed: ${errorText(err)}`);
    } finally {
      setBusy(false);
    }
  };

  const unlink = async () => {
    if (!pending) return;
    setBusy(true);
    try {
      const [self, other] = await Promise.all([fetchThing(thing._id), fetchThing(pending._id)]);
      const plan = planUnlink(relation, { self: thing._id, other: pending._id }, self, other);
      if (plan.kind === 'none') {
        snackbar.error(plan.message);
      } else {
        const target = plan.target === 'self' ? self : other;
        if (target) await putThing(withParents(target, plan.parents));
        if (plan.ok) snackbar.notify(plan.message);
        else snackbar.error(plan.message);
      }
      await refresh();
    } catch (err) {
      snackbar.error(`Save failed: ${errorText(err)}`);
    } finally {
      setBusy(false);
      setPending(null);
    }
  };

  const linkedIds = new Set((related.data ?? []).map((t) => t._id));
  const candidates = (found.data?.rows ?? []).filter((t) => t._id !== thing._id);

  return (
    <Box data-testid="relations">
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5, alignItems: 'center', mb: 2 }}>
        <ToggleButtonGroup
          exclusive
          size="small"
          value={relation}
          onChange={(_e, value: Relation | null) => value && setRelation(value)}
          aria-label="Children or parents"
        >
          <ToggleButton value="children">Children</ToggleButton>
          <ToggleButton value="parents">Parents</ToggleButton>
        </ToggleButtonGroup>
        <Box sx={{ flex: 1 }} />
        {canModify &&
          (adding ? (
            <Button startIcon={<Close />} onClick={() => setAdding(false)}>
              Done
            </Button>
          ) : (
            <Button variant="outlined" startIcon={<AddLink />} onClick={() => setAdding(true)}>
              {relation === 'children' ? 'Add child' : 'Add parent'}
            </Button>
          ))}
      </Box>

      {adding ? (
        <Box>
          <TextField
            fullWidth
            size="small"
            autoFocus
            label={`Find a ${singular} to link`}
            placeholder="Name, serial or tag (3 characters or more)"
            value={text}
            onChange={(e) => setText(e.target.value)}
            // Enter searches; it must not submit the thing's form.
            onKeyDown={(e) => e.key === 'Enter' && e.preventDefault()}
            slotProps={{
              input: {
                startAdornment: (
                  <InputAdornment position="start">
                    <SearchIcon fontSize="small" />
                  </InputAdornment>
                ),
              },
            }}
            sx={{ mb: 1.5 }}
          />
          <Paper variant="outlined">
            {found.isPending ? (
              <Loading minHeight={120} />
            ) : candidates.length === 0 ? (
              <EmptyState message="No things match this search" />
            ) : (
              <List dense disablePadding aria-label={`Things to link as ${singular}`}>
                {candidates.map((t) => (
                  <ThingRow
                    key={t._id}
                    thing={t}
                    action={{
                      label: linkedIds.has(t._id) ? `Already linked` : `Link ${singular}`,
                      icon: <LinkIcon />,
                      onClick: () => void link(t),
                      disabled: busy,
                    }}
                  />
                ))}
              </List>
            )}
          </Paper>
        </Box>
      ) : (
        <Paper variant="outlined">
          {related.isPending ? (
            <Loading minHeight={120} />
          ) : related.isError ? (
            <LoadFailure query={related} name={relation} />
          ) : (related.data ?? []).length === 0 ? (
            <EmptyState
              message={relation === 'children' ? 'No children linked' : 'No parents linked'}
            />
          ) : (
            <List
              dense
              disablePadding
              aria-label={relation === 'children' ? 'Children' : 'Parents'}
            >
              {(related.data ?? []).map((t) => (
                <ThingRow
                  key={t._id}
                  thing={t}
                  action={{
                    label: `Unlink ${singular}`,
                    icon: <LinkOff />,
                    onClick: () => setPending(t),
                    disabled: busy || !canModify,
                  }}
                />
              ))}
            </List>
          )}
        </Paper>
      )}

      <ConfirmDialog
        open={pending !== null}
        title={relation === 'children' ? 'Unlink child' : 'Unlink parent'}
        message={`Unlink ${pending?.common.name || `this ${singular}`}?`}
        confirmLabel="Unlink"
        busy={busy}
        onCancel={() => setPending(null)}
        onConfirm={() => void unlink()}
      />
    </Box>
  );
}
