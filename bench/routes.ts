/** A fixed 30-command Zork I (r119) route through the house, cellar, gallery, attic and troll room. */
export const ZORK_ROUTE = [
  'north', 'east', 'open window', 'enter house', 'open sack', 'west', 'take lamp', 'move rug', 'open trap door', 'turn on lamp',
  'down', 'south', 'east', 'take painting', 'north', 'up', 'west', 'open case', 'put painting in case', 'east',
  'up', 'take knife', 'take rope', 'down', 'west', 'open trap door', 'down', 'north', 'attack troll with knife', 'attack troll with knife',
];
