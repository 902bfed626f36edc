/** The API key screens' texts (spec sections 5 and 8). */
export const CONFIRM_DELETE_TITLE = 'Confirm Delete';
export const AT_LEAST_ONE_MESSAGE = 'You must select at least one item';
