import ContentCopy from '@mui/icons-material/ContentCopy';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import { useState } from 'react';
import { useParams } from 'react-router';
import { statusErrorText } from '../../api/client';
import type { ApiKey } from '../../api/types';
import { DetailForm, type TabDef } from '../../components/DetailForm';
import { FILL_REQUIRED_MESSAGE } from '../../components/formRules';
import { LoadGate } from '../../components/LoadGate';
import { useSnackbar } from '../../components/Snackbar';
import { useSiteNavigate } from '../access/SiteContext';
import { usePermissions } from '../access/queries';
import { useRoleOptions, useScopedSiteOptions } from '../users/scopeOptions';
import { AT_LEAST_ONE_MESSAGE, CONFIRM_DELETE_TITLE } from './messages';
import { useApiKey, useCreateApiKey, useDeleteApiKey } from './queries';

interface ApiKeyForm {
  name: string;
  token: string;
  roles: string[];
  sites: string[];
}

const atLeastOne = (value: unknown) =>
  ((value as string[] | undefined) ?? []).length > 0 || AT_LEAST_ONE_MESSAGE;

/** The whole token, shown once right after the key is made. */
function NewTokenDialog({ apiKey, onDone }: { apiKey: ApiKey; onDone: () => void }) {
  const snackbar = useSnackbar();
  // No clipboard outside secure contexts (plain http).
  const copy = () =>
    (navigator.clipboard as Clipboard | undefined)
      ?.writeText(apiKey.token)
      .then(() => snackbar.notify('Token copied'))
      .catch(() => snackbar.error('Copy failed: select the token and copy it'));
  return (
    <Dialog open maxWidth="sm" fullWidth aria-labelledby="new-token-title">
      <DialogTitle id="new-token-title">API key created</DialogTitle>
      <DialogContent>
        <Alert severity="warning" sx={{ mb: 2 }}>
          Copy this token now: it is shown only once. Send it as &quot;Authorization: Bearer
          &lt;token&gt;&quot;.
        </Alert>
        <TextField
          label="Token"
          value={apiKey.token}
          fullWidth
          multiline
          slotProps={{
            input: {
              readOnly: true,
              sx: { fontFamily: 'monospace', wordBreak: 'break-all' },
              endAdornment: (
                <InputAdornment position="end">
                  <Tooltip title="Copy">
                    <IconButton aria-label="Copy token" onClick={() => void copy()} edge="end">
                      <ContentCopy />
                    </IconButton>
                  </Tooltip>
                </InputAdornment>
              ),
            },
            htmlInput: { 'data-testid': 'new-token' },
          }}
        />
      </DialogContent>
      <DialogActions>
        <Button variant="contained" onClick={onDone}>
          Done
        </Button>
      </DialogActions>
    </Dialog>
  );
}

function ApiKeyEditor({ id, apiKey }: { id: string; apiKey: ApiKey | undefined }) {
  const isNew = id === 'new';
  const perms = usePermissions();
  // Super Admin is never offered: a key cannot hold it.
  const roleOptions = useRoleOptions(false);
  const siteOptions = useScopedSiteOptions();
  const create = useCreateApiKey();
  const remove = useDeleteApiKey();
  const navigate = useSiteNavigate();
  const [created, setCreated] = useState<ApiKey | null>(null);

  const tabs: TabDef<ApiKeyForm>[] = [
    {
      label: 'Basic',
      fields: [
        { name: 'name', label: 'Name', required: true, autoComplete: 'off' },
        {
          name: 'token',
          label: 'Token',
          readOnly: true,
          hidden: isNew,
          helperText: 'The whole token was shown once, when the key was made',
        },
        {
          name: 'roles',
          label: 'Roles',
          kind: 'multiselect',
          required: true,
          requiredMessage: AT_LEAST_ONE_MESSAGE,
          validate: atLeastOne,
          options: roleOptions,
        },
        {
          name: 'sites',
          label: 'Sites',
          kind: 'multiselect',
          required: true,
          requiredMessage: AT_LEAST_ONE_MESSAGE,
          validate: atLeastOne,
          options: siteOptions,
        },
      ],
    },
  ];

  return (
    <>
      <DetailForm<ApiKeyForm, ApiKey>
        name="API key"
        title={isNew ? 'Add API Key' : (apiKey?.name ?? 'API Key')}
        id={id}
        tabs={tabs}
        initialValues={{
          name: apiKey?.name ?? '',
          token: apiKey?.token ?? '',
          roles: apiKey?.roles ?? [],
          sites: apiKey?.securityCtx?.sites ?? [],
        }}
        onSave={(values) =>
          create.mutateAsync({
            name: values.name.trim(),
            roles: values.roles,
            securityCtx: { sites: values.sites },
          })
        }
        afterSave={(saved) => setCreated(saved)}
        onDelete={() => remove.mutateAsync(id)}
        parentPath="/apikeys"
        // Keys are made once and never changed: an existing key is view or delete only.
        canModify={false}
        canCreate={perms.can('apikeys', 'create')}
        canDelete={perms.can('apikeys', 'modify')}
        invalidMessage={FILL_REQUIRED_MESSAGE}
        deleteTitle={CONFIRM_DELETE_TITLE}
        formatError={statusErrorText}
      />
      {created && (
        <NewTokenDialog
          apiKey={created}
          onDone={() => void navigate(`/apikeys/${created._id}`, { replace: true })}
        />
      )}
    </>
  );
}

export default function ApiKeyEditPage() {
  const { id = 'new' } = useParams();
  const query = useApiKey(id);
  if (id === 'new') return <ApiKeyEditor key="new" id={id} apiKey={undefined} />;
  return (
    <LoadGate query={query} name="API key">
      {(apiKey) => <ApiKeyEditor key={apiKey._id} id={id} apiKey={apiKey} />}
    </LoadGate>
  );
}
