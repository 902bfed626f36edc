export { BarChart as default } from '@mui/x-charts/BarChart';
