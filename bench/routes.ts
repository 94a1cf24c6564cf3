/** A fixed 30-command Zork I (r119) route through the house, cellar, gallery, attic and troll room. */
export const ZORK_ROUTE = [
  'north', 'east', 'open window', 'enter house', 'open sack', 'west', 'take lamp', 'move rug', 'open trap door', 'turn on lamp',
  'down', 'south', 'east', 'take painting', 'north', 'up', 'west', 'open case', 'put painting in case', 'east',
  'up', 'take knife', 'take rope', 'down', 'west', 'open trap door', 'down', 'north', 'attack troll with knife', 'attack troll with knife',
];

/**
 * 9:05 (r1) won: Jericho's walkthrough for 905.z5, with its abbreviations spelled out. The last
 * three answer the questions asked on the drive; only the final "yes" wins.
 */
export const NINE05_ROUTE = [
  'answer phone', 'stand up', 'south', 'remove watch', 'remove clothing', 'drop all', 'enter shower', 'take watch', 'wear watch', 'north',
  'get all from table', 'open dresser', 'take clothing from dresser', 'wear clothing', 'east', 'open front door', 'south', 'unlock car', 'enter car',
  'no', 'no', 'yes',
];
