"""What every ruleset needs and no ruleset owns (#9 "A kit for rulesets"): the event
accumulator (:mod:`.batch`), prompts (:mod:`.prompts`), the roll record (:mod:`.rolls`),
turn orders as data (:mod:`.turns`), argument parsing (:mod:`.args`) and event specs
(:mod:`.events`). Pure, like the rules it serves: no I/O, clock or randomness."""
