import { Autocomplete } from './Autocomplete';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import type { Dayjs } from 'dayjs';
import type { ReactNode } from 'react';
import { Controller, type Control, type FieldValues } from 'react-hook-form';
import { ChipsInput, chipValues } from './ChipsInput';
import { DateField } from './DateField';
import { SELECT_ITEM_MESSAGE, fieldText, isEmail } from './formRules';

type FieldKind =
  | 'text'
  | 'email'
  | 'password'
  | 'number'
  | 'textarea'
  | 'checkbox'
  | 'select'
  | 'multiselect'
  | 'autocomplete'
  | 'date'
  | 'time'
  | 'emails'
  | 'custom';

export interface FieldOption {
  value: string;
  label: string;
}

type Validator<V> = (value: unknown, values: V) => true | string | Promise<true | string>;

export interface FieldDef<V = FieldValues> {
  /** Path in the form values, e.g. 'reportSettings.emails'. */
  name: string;
  label: string;
  kind?: FieldKind;
  required?: boolean;
  /** A custom rule: true when valid, else its message. */
  validate?: Validator<V>;
  options?: FieldOption[];
  /** Like requiredWhen: choices that depend on other fields (they replace options). */
  optionsWhen?: (values: V) => FieldOption[];
  readOnly?: boolean;
  /** Static, or decided from the current values (e.g. shown only for a new record). */
  hidden?: boolean | ((values: V) => boolean);
  /** For kind 'custom', like hidden: shown but not editable (passed to render as disabled). */
  disabled?: boolean | ((values: V) => boolean);
  /** Like hidden: a required flag may depend on other fields. */
  requiredWhen?: (values: V) => boolean;
  /** The inline text when a required field is empty (default by kind). */
  requiredMessage?: string;
  /** Shown verbatim in the snackbar when this field's custom rule fails. */
  submitMessage?: string;
  helperText?: string;
  /** Spans both columns of the form grid. */
  wide?: boolean;
  autoComplete?: string;
  placeholder?: string;
  /** For kind 'custom': the field shows its own error messages (e.g. on the rows at fault). */
  ownErrors?: boolean;
  /** For kind 'custom': renders the field itself. */
  render?: (props: {
    value: unknown;
    onChange: (v: unknown) => void;
    readOnly: boolean;
    disabled: boolean;
    /** The field failed its rules (after a submit), e.g. to mark the rows at fault. */
    invalid: boolean;
  }) => ReactNode;
}

function requiredInline(kind: FieldKind): string {
  return kind === 'select' || kind === 'multiselect' || kind === 'autocomplete'
    ? SELECT_ITEM_MESSAGE
    : 'This field is required';
}

/** One field of a DetailForm, bound to react-hook-form. */
export function FormField<V extends FieldValues>({
  field: def,
  control,
  readOnly,
}: {
  field: FieldDef<V>;
  control: Control;
  readOnly: boolean;
}) {
  const kind = def.kind ?? 'text';
  const locked = readOnly || !!def.readOnly;
  const check = def.validate;
  const validate = check
    ? (value: unknown, values: FieldValues) => check(value, values as V)
    : undefined;
  const emailsRule =
    kind === 'emails'
      ? (value: unknown) => {
          const bad = ((value as string[] | undefined) ?? []).find((e) => !isEmail(e));
          return bad === undefined || `'${bad}' is not a valid email address`;
        }
      : undefined;
  const emailRule =
    kind === 'email'
      ? (value: unknown) =>
          !value || isEmail(fieldText(value)) || 'Please enter a valid email address'
      : undefined;
  const rules = {
    required: def.required,
    validate: {
      ...(validate ? { rule: validate } : {}),
      ...(emailsRule ? { emails: emailsRule } : {}),
      ...(emailRule ? { email: emailRule } : {}),
    },
  };

  return (
    <Controller
      name={def.name}
      control={control}
      rules={rules}
      render={({ field, fieldState }) => {
        const error = fieldState.error;
        const helper =
          error?.type === 'required'
            ? (def.requiredMessage ?? requiredInline(kind))
            : (error?.message ?? def.helperText);
        const common = {
          label: def.label,
          required: def.required,
          error: !!error,
          helperText: helper,
          name: field.name,
          onBlur: field.onBlur,
          inputRef: field.ref,
        };
        switch (kind) {
          case 'checkbox':
            return (
              <div>
                <FormControlLabel
                  control={
                    <Checkbox
                      checked={!!field.value}
                      onChange={(e) => field.onChange(e.target.checked)}
                      disabled={locked}
                    />
                  }
                  label={def.label}
                />
                {helper && <FormHelperText error={!!error}>{helper}</FormHelperText>}
              </div>
            );
          case 'select':
            return (
              <TextField
                {...common}
                select
                value={(field.value as unknown) ?? ''}
                onChange={(e) => field.onChange(e.target.value)}
                disabled={locked}
              >
                {(def.options ?? []).map((o) => (
                  <MenuItem key={o.value} value={o.value}>
                    {o.label}
                  </MenuItem>
                ))}
              </TextField>
            );
          case 'multiselect': {
            const options = def.options ?? [];
            const selected = ((field.value as string[] | undefined) ?? []).map(
              (v) => options.find((o) => o.value === v) ?? { value: v, label: v },
            );
            return (
              <Autocomplete
                multiple
                options={options}
                value={selected}
                disabled={locked}
                disableCloseOnSelect
                filterSelectedOptions
                getOptionLabel={(o) => o.label}
                isOptionEqualToValue={(a, b) => a.value === b.value}
                onChange={(_e, value) => field.onChange(value.map((o) => o.value))}
                onBlur={field.onBlur}
                renderInput={(params) => <TextField {...params} {...common} onBlur={undefined} />}
              />
            );
          }
          case 'autocomplete':
            return (
              <Autocomplete
                options={(def.options ?? []).map((o) => o.value)}
                value={(field.value as string | null | undefined) || null}
                disabled={locked}
                getOptionLabel={(v) => def.options?.find((o) => o.value === v)?.label ?? v}
                onChange={(_e, value) => field.onChange(value ?? '')}
                onBlur={field.onBlur}
                renderInput={(params) => <TextField {...params} {...common} onBlur={undefined} />}
              />
            );
          case 'emails':
            return (
              <ChipsInput
                label={def.label}
                value={chipValues(field.value)}
                onChange={field.onChange}
                onBlur={field.onBlur}
                disabled={locked}
                distinct={false}
                chipColor={(option) => (isEmail(option) ? 'default' : 'error')}
                placeholder={def.placeholder ?? 'Type an email, then Enter'}
                inputProps={{
                  required: common.required,
                  error: common.error,
                  helperText: common.helperText,
                  name: common.name,
                  inputRef: common.inputRef,
                }}
              />
            );
          case 'date':
            return (
              <DateField
                fieldSx={{ width: '100%' }}
                label={def.label}
                value={(field.value as Dayjs | null | undefined) ?? null}
                onChange={(value) => field.onChange(value)}
                readOnly={locked}
                inputRef={field.ref}
                slotProps={{
                  textField: {
                    required: def.required,
                    error: !!error,
                    helperText: helper,
                    onBlur: field.onBlur,
                    name: field.name,
                    fullWidth: true,
                    size: 'small',
                  },
                }}
              />
            );
          case 'custom':
            return (
              <>
                {def.render?.({
                  value: field.value,
                  onChange: field.onChange,
                  readOnly: locked,
                  disabled: def.disabled === true,
                  invalid: !!error,
                })}
                {helper && !(error && def.ownErrors) && (
                  <FormHelperText error={!!error}>{helper}</FormHelperText>
                )}
              </>
            );
          default: {
            const type =
              kind === 'number'
                ? 'number'
                : kind === 'password'
                  ? 'password'
                  : kind === 'time'
                    ? 'time'
                    : kind === 'email'
                      ? 'email'
                      : 'text';
            return (
              <TextField
                {...common}
                type={type}
                value={(field.value as unknown) ?? ''}
                onChange={(e) => field.onChange(e.target.value)}
                multiline={kind === 'textarea'}
                minRows={kind === 'textarea' ? 3 : undefined}
                autoComplete={def.autoComplete}
                placeholder={def.placeholder}
                slotProps={{
                  input: { readOnly: locked },
                  inputLabel: kind === 'time' ? { shrink: true } : undefined,
                  htmlInput: kind === 'number' ? { step: 'any' } : undefined,
                }}
              />
            );
          }
        }
      }}
    />
  );
}
