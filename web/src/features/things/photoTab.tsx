import type { FieldValues } from 'react-hook-form';
import type { TabDef } from '../../components/DetailForm';

/**
 * The place of the Photo tab (between Zone History and Data, as in the spec). It arrives with
 * the Images work; until then it stays hidden rather than showing something that does not work.
 */
export function photoTab<V extends FieldValues>(): TabDef<V> {
  return { label: 'Photo', hidden: true };
}
