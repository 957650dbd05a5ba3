/** The IBGE codes of the 27 federative units: the first two digits of every NF-e key (`cUF`). */
export const STATE_CODES = [
  '11', '12', '13', '14', '15', '16', '17', '21', '22', '23', '24', '25', '26', '27',
  '28', '29', '31', '32', '33', '35', '41', '42', '43', '50', '51', '52', '53',
] as const;

export const stateCodeOfKey = (key: string): string => key.slice(0, 2);
