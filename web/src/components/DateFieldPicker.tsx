import { DatePicker, type DatePickerProps } from '@mui/x-date-pickers/DatePicker';
import { DatePickersProvider } from '../app/DatePickersProvider';

/** A date picker with its own dayjs adapter: the range fields load it after the page shows. */
export default function DateFieldPicker(props: DatePickerProps) {
  return (
    <DatePickersProvider>
      <DatePicker {...props} />
    </DatePickersProvider>
  );
}
