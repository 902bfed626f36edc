import Box from '@mui/material/Box';
import type { AutocompleteProps, AutocompleteRenderInputParams } from '@mui/material/Autocomplete';
import type { ChipTypeMap } from '@mui/material/Chip';
import { useId, type ComponentType, type ElementType } from 'react';
import { afterPaint, useAfterPaint } from './afterPaint';

// Autocomplete and its popup code (about 17 KiB gzipped) load after the screen has painted;
// until then the field is drawn by its own renderInput, read-only, with its current value.
const autocompleteModule = afterPaint(() => import('@mui/material/Autocomplete'));

function defaultLabel(option: unknown): string {
  if (typeof option === 'string') return option;
  const label = (option as { label?: unknown } | null)?.label;
  // Options without a label read as String() prints them, as MUI's own default does.
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- see above
  return typeof label === 'string' ? label : String(option ?? '');
}

/** MUI's Autocomplete, same props, loaded in its own chunk. */
export function Autocomplete<
  Value,
  Multiple extends boolean | undefined = false,
  DisableClearable extends boolean | undefined = false,
  FreeSolo extends boolean | undefined = false,
  ChipComponent extends ElementType = ChipTypeMap['defaultComponent'],
>(props: AutocompleteProps<Value, Multiple, DisableClearable, FreeSolo, ChipComponent>) {
  const id = useId();
  const loaded = useAfterPaint(autocompleteModule);
  if (loaded) {
    const Loaded = loaded.default as unknown as ComponentType<
      AutocompleteProps<unknown, boolean, boolean, boolean>
    >;
    return <Loaded {...(props as AutocompleteProps<unknown, boolean, boolean, boolean>)} />;
  }
  // The stand-in: the field as its own renderInput draws it, read-only, with the value's text.
  const label = (props.getOptionLabel as ((o: unknown) => string) | undefined) ?? defaultLabel;
  const value: unknown = props.value;
  const text = Array.isArray(value)
    ? value.map(label).join(', ')
    : value != null
      ? label(value)
      : (props.inputValue ?? '');
  const params = {
    id: props.id ?? id,
    disabled: !!props.disabled,
    fullWidth: !!props.fullWidth,
    size: props.size === 'small' ? 'small' : undefined,
    slotProps: {
      inputLabel: {},
      input: {
        ref: null,
        className: '',
        startAdornment: null,
        endAdornment: null,
        onMouseDown: () => undefined,
      },
      htmlInput: { readOnly: true, value: text },
    },
  } as unknown as AutocompleteRenderInputParams;
  return (
    <Box sx={props.sx} className={props.className}>
      {props.renderInput(params)}
    </Box>
  );
}
