import BarChartOutlined from '@mui/icons-material/BarChartOutlined';
import TableRowsOutlined from '@mui/icons-material/TableRowsOutlined';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';

export type ReportView = 'table' | 'graph';

/** Switches a report between its tables and its horizontal bar chart. */
export function ViewToggle({
  value,
  onChange,
}: {
  value: ReportView;
  onChange: (view: ReportView) => void;
}) {
  return (
    <ToggleButtonGroup
      size="small"
      exclusive
      value={value}
      onChange={(_e, next: ReportView | null) => next && onChange(next)}
      aria-label="View"
    >
      <ToggleButton value="table" aria-label="Table">
        <TableRowsOutlined fontSize="small" sx={{ mr: 0.75 }} />
        Table
      </ToggleButton>
      <ToggleButton value="graph" aria-label="Graph">
        <BarChartOutlined fontSize="small" sx={{ mr: 0.75 }} />
        Graph
      </ToggleButton>
    </ToggleButtonGroup>
  );
}
