"""A stable key for every sentence a client can be refused with (issue 26 item 5), so that a page
shows the refusal in its reader's language.

The sentences stay where they are written (the rules engines, the server) and stay the answer's
``message``; this catalog names each one by a key (``reason``) and reads its variable parts back
(``params``). A part that is itself a catalogued sentence (``seat 2 cannot declare KS QS JS: it
does not hold JS``) is given as ``{"reason", "params"}`` too. ``tests/server/test_reasons.py``
walks every refusal the server and the engines can give and checks that the catalog names each
one exactly, and that the page (``web/reasons.js``) has each in all four languages.

>>> reason_of("seat 2 is taken")
('seat_taken', {'seat': '2'})
>>> reason_of("seat 1 cannot declare KS QS JS: it does not hold JS")[1]["why"]
{'reason': 'hand_lacks', 'params': {'cards': 'JS'}}
>>> reason_of("something nobody ever said") is None
True
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any, Final

#: key -> the sentence as the code writes it, with {name} for each variable part.
REASONS: Final[dict[str, str]] = {
    # --- accounts and players ---------------------------------------------------------------------
    "username_needed": "a username is needed",
    "username_length": "a username has {low} to {high} characters, not {n}",
    "username_signs": "a username has only letters, digits and _ - . (no spaces or other signs)",
    "username_one_alphabet": "a username uses the letters of one alphabet only",
    "username_start": "a username starts with a letter or a digit",
    "username_taken": "the username {name} is taken",
    "username_too_like": "the username {name} is too like {other}, which is taken",
    "username_bot": "a username cannot start with bot: that is how the tables name bots",
    "name_control": "a name has no control, format or invisible characters",
    "name_shows": "a name needs a letter, a digit or a sign that shows",
    "name_bot": "a person's name cannot start with bot: that is how the tables name bots",
    "name_of_account": "the name {name} is too like the account {other}: a guest takes another name",
    "name_in_game": "you play at table {table}: change your name once its game is over",
    "avatar_in_game": "you play at table {table}: change your avatar once its game is over",
    "password_needed": "a password is needed",
    "password_length": "a password has {low} to {high} characters",
    "password_spaces": "a password cannot be only spaces",
    "password_is_username": "the password must not be the username",
    "account_disabled": "this account is disabled",
    "token_needed": "a player token is needed",
    "token_needed_create": "a player token is needed: create a player first",
    "token_unknown": "unknown player token",
    "guest_not_account": "this is a guest: sign up or log in first",
    "account_name_is_username": "an account plays under its username",
    "account_still_seated": "you sit at table {table}, whose game is not over: leave it or finish it first",
    "field_needed": "{field} is needed",
    "field_too_long": "{field} is too long",
    "name_needed": "a name is needed",
    "name_too_long": "a name has at most {n} characters",
    "login_limit_address": "too many login attempts from this address: try again in {wait}",
    "login_limit_account": "too many failed logins for this account: try again in {wait}",
    "guest_limit": "too many new players from this address: try again in {wait}, or log in",
    "same_browser": (
        "{name} at this table plays from the same browser as you: two players of one browser may not "
        "sit at one table"
    ),
    "avatar_choices": "an avatar is one of {choices}, or null",
    "no_such_player": "no such player",
    # --- tables --------------------------------------------------------------------------------------
    "no_such_table": "no such table",
    "table_closed": "this table is closed",
    "no_finished_game": "no finished game at this table",
    "host_limit": "you already host {n} open {tables}: play or leave one, or let a waiting one expire",
    "waiting_limit": (
        "{n} tables made from this address are waiting for players: start or leave one first, or let a "
        "waiting one expire"
    ),
    "options_object": "options is an object of the game's options, or null",
    "timer_range": "the turn timer is a number of seconds from 0 (none) to {high}",
    "trick_pause_range": "the trick pause is a number of seconds from 0 to {high}",
    "public_flag": "public is true or false",
    "rated_flag": "rated is true or false",
    "rated_accounts_only": "rated tables are for players with an account: sign up or log in",
    "rated_bots_only": (
        "a rated table's bots are {levels}, each at its own settings; {level} may not play rated games"
    ),
    "rematch_after_game": "a rematch is possible once the game is over",
    "rematch_rated_players": "only the players of a rated game may ask for its rematch",
    "rematch_players": "only the players of a game may start its rematch",
    "manage_host_or_seated": "only the table's host or a seated player may do that",
    "seat_number": "a seat is a number from 0 to {last}",
    "seat_number_not": "a seat is a number from 0 to {last}, not {seat}",
    "bot_level_name": "a bot level is a name such as basic or random",
    "bot_programs_by_serve": "bot programs are set up with blot serve --bot, not named here",
    "bot_not_this_game": "the bot {bot} does not play {game}",
    "game_started": "the game has started: {what}",
    "game_already_started": "the game has already started",
    "game_not_playing": "the game is not being played",
    "seat_taken": "seat {seat} is taken",
    "seat_taken_by_player": "seat {seat} is taken by a player",
    "no_seat": "you have no seat at this table",
    "seats_empty": "every seat needs a player or a bot before the start",
    "spectators_cannot_play": "spectators cannot play",
    "not_your_turn": "it is not your turn",
    "agree_flag": "agree is true or false",
    "end_vote_seated": "only a player seated at this table may vote to end its game",
    "session_ended": "your session has ended: log in again",
    "other_host": "this server does not answer to that host name",
    "other_site": "requests from other sites are refused",
    "body_too_large": "a request body has at most {n} bytes",
    "storage_down": "the server could not reach its storage; please try again",
    "internal_error": "something went wrong on the server (error {id}); nothing more is known here",
    "no_such_route": "no such page or API route",
    "bad_parameter": "a bad parameter: {where}",
    "owner_silent": "the table's server does not answer; please try again",
    "server_failed": "the server failed; please try again",
    "save_failed": "the server could not save that; please try again",
    "save_failed_last": "the server could not save the last change; please try again",
    "analyses_busy": "the server is analysing {n} games already: try again in a minute",
    "server_stopping": "the server is stopping",
    # --- the websocket and request bodies -------------------------------------------------------------
    "socket_message_size": "a message is a JSON object of at most {n} characters",
    "socket_message_object": "a message must be a JSON object",
    "socket_hello_first": "the first message must be hello",
    "socket_since": "since is the number of the last event seen, or null",
    "socket_token": "token is a string or null",
    "socket_recent": "recent is the number of recent events wanted for the log",
    "socket_unknown_type": "unknown message type: use {types}",
    "action_message": "an action message needs 'action', a call or a card in record notation",
    "declare_choice": "'declare' is best, none, or a list of declarations written as cards",
    "body_object": "the request body must be a JSON object",
    "body_object_field": "body: the request body must be a JSON object",
    "body_size": "the request body has at most {n} characters",
    "json_utf8": "{what} must be JSON in UTF-8",
    "json_depth": "{what} is nested at most {n} levels deep",
    "json_needed": "{what} must be JSON",
    # --- talk at the table ----------------------------------------------------------------------------
    "chat_players_only": "only a player may talk at a table: open the lobby first",
    "chat_off": "the host has turned the chat of this table off",
    "chat_rated_deal": (
        "at a rated or event table nothing may be said while a deal is played: wait for its end (League §10)"
    ),
    "chat_switch_deal": (
        "at a rated or event table the chat is not switched while a deal is played: "
        "wait for its end (League §10)"
    ),
    "chat_too_fast": "you are talking too fast: wait {n} seconds",
    "chat_silenced": "your account may not talk at tables",
    "chat_switch_flag": "on is true or false",
    "chat_switch_host": "only the table's host may turn its chat off or on",
    "mute_players_only": "only a player may mute somebody: open the lobby first",
    "mute_message": "mute needs player (a number) and muted (true or false)",
    "mute_self": "you cannot mute yourself",
    "chat_one_kind": "a chat message has one of phrase, emote or text",
    "chat_phrases": "phrases are {phrases}",
    "chat_emotes": "emotes are {emotes}",
    "chat_rated_text": "free text is off at rated and event tables: use the quick phrases",
    "chat_text_string": "a chat text is a string",
    "chat_empty": "an empty message says nothing",
    "chat_too_long": "a message has at most {n} characters",
    # --- games, rules and options -------------------------------------------------------------------------
    "unknown_game": "unknown game {game}: use {games}",
    "unknown_bot": "unknown bot {bot} for {game}: choose from {bots}",
    "tfe_one_ruleset": "3-5-8 has one ruleset (standard) and no options",
    "unknown_ruleset": "unknown ruleset {ruleset}: use {rulesets}",
    "ruleset_must_be": "ruleset must be {rulesets}",
    "option_flag": "option {option} must be true or false",
    "option_nt_four_nines": "option nt_four_nines must be 10 or 0",
    "option_target": "option target must be a whole number of points from 1 to 10000",
    "options_must_be_object": "options must be an object",
    "unknown_option": "unknown option {option}: known options are {options}",
    # --- bots at web tables ---------------------------------------------------------------------------
    "bot_name": "a bot is a name such as basic or random",
    "bot_spec_length": "a bot is written NAME[:key=value,...] in at most {n} characters",
    "bot_web_listed": "a web table's bots are the listed levels, never a program",
    "bot_comma": "{spec} has a comma with nothing on one side of it",
    "bot_setting_form": "bot setting {setting} must be written key=value, e.g. {bot}:samples=20",
    "bot_setting_twice": "bot {bot}: {setting} is given twice",
    "bot_setting_unknown": "bot {bot} has no setting {setting} (its settings: {settings})",
    "bot_setting_value": "bot {bot}: {setting} is {rule}, not {value}",
    "bot_setting_web_max": "bot {bot}: {setting} is at most {high} at a web table, not {value}",
    # --- actions: cards and calls -------------------------------------------------------------------------
    "game_over": "the game is over",
    "deal_over": "the deal is over",
    "bidding_over": "the bidding is over",
    "no_rank": "there is no rank {rank}",
    "not_a_card": (
        "{text} is not a card: write the rank (2-10, J, Q, K, A) then the suit (S, H, D, C), e.g. 10H or AS"
    ),
    "card_twice": "{card} appears twice",
    "not_text": "{text} is not text: write a call or a card in record notation",
    "neither_call_nor_card": "{text} is neither a call nor a card",
    "card_after_bidding": "{card} is not a card: the bidding is over",
    "call_during_bidding": "{call} is not a call: the bidding is not over",
    "not_a_bid": "{level}{strain} is not a bid: levels are 8 to 25 (or 30), strains S H D C NT",
    "not_a_call": "{text} is not a call: write pass, contra, redouble, sevens or a bid such as 10H or 12NT",
    "action_json": 'an action is a call or a card in record notation, or {"declare": …}',
    "does_not_hold": "seat {seat} does not hold {card}",
    "must_follow": "seat {seat} holds {suit} and must follow {lead}",
    "must_follow_trumps": "seat {seat} holds trumps and must follow {lead}",
    "must_overtrump_follow": "seat {seat} holds a trump above {card} and must play one (B-31)",
    "must_overtrump": "seat {seat} has no {lead} and must play a trump above {card} (B-32)",
    "must_trump": "seat {seat} has no {lead} and must trump (B-32)",
    "tfe_must_overtrump_follow": "seat {seat} holds a trump stronger than {card} and must play one",
    "tfe_must_trump": "seat {seat} has no {lead} and holds a trump, so must trump",
    "tfe_must_overtrump": (
        "seat {seat} has no {lead} and holds a trump stronger than {card}, so must overtrump"
    ),
    # --- Bazar Blot: bidding and declarations -------------------------------------------------------------
    "contra_then_redouble": "after a contra seat {seat} may only redouble or pass (B-24)",
    "no_contra_to_redouble": "there is no contra to redouble",
    "sevens_ruleset": "four sevens do not void a deal in the {ruleset} ruleset (B-90)",
    "sevens_not_dealt": "seat {seat} was not dealt all four 7s",
    "sevens_first_call": "four sevens may only be shown as a seat's first call (B-25)",
    "no_bid_to_contra": "there is no bid to contra",
    "contra_own_team": "seat {seat} may not contra its own team's bid",
    "kanach_off": "30 (kanach) is not a bid unless the kanach option is on",
    "bid_after_top": "nobody may bid after {bid} (B-22)",
    "bid_too_low": "{call} is too low: a bid must be above {bid}",
    "bid_other_strain": "seat {seat} may go on only in a strain other than {strain} (B-26)",
    "declare_first_trick": "seat {seat} may declare only in the first trick, before its card",
    "declare_nothing": "seat {seat} has nothing to declare",
    "declare_said": "seat {seat} has already said what it declares",
    "declare_refused": "seat {seat} cannot declare {declaration}: {why}",
    "declare_not_held": (
        "seat {seat} cannot declare {declaration}: that is not a set of declarations it holds (B-43)"
    ),
    "hand_lacks": "it does not hold {cards}",
    "card_in_one_declaration": "a card may serve in only one declaration (B-43)",
    "not_held_set": "that is not a set of declarations it holds",
    "declare_before_card": "seat {seat} must say what it declares before playing its first card",
    "declare_when": "declarations are made in the first trick, at one's own turn, before the card",
    "declare_not_possible": "that is not a set of declarations this hand may declare (B-43)",
    "not_a_declaration": (
        "{cards} is not a declaration: a declaration is 3 to 5 cards in sequence in one suit or four "
        "cards of one rank other than 7"
    ),
    "hand_does_not_hold": "the hand does not hold {cards}",
    # --- 3-5-8 ----------------------------------------------------------------------------------------------
    "tfe_passed": "seat {seat} has already passed once this game",
    "tfe_not_a_call": "{text} is not a 3-5-8 call: write S, H, D, C, NT or pass",
    "tfe_not_an_action": (
        "{text} is not a 3-5-8 action: write a card such as 10H or a call (S, H, D, C, NT, pass)"
    ),
    # --- score sheets (Davtar) ------------------------------------------------------------------------------
    "sheet_over": "the game is over: no deal can be added",
    "sheet_no_deal": "there is no deal {n} (the sheet has {count})",
    "sheet_no_deal_number": "there is no deal {n}: deals are numbered from 1",
    "sheet_after_end": "deal {n} would come after the end of the game (deal {last})",
    "sheet_deal_object": "a deal must be a JSON object",
    "sheet_flag": "must be true or false",
    "sheet_contract": "a played deal needs its contract (team, level, strain, multiplier)",
    "sheet_level": "{level} is not a level: levels are 8 to {high}",
    "sheet_one_team_declares": "only one team's declarations count (B-44)",
    "sheet_belote_one_team": "belote-rebelote is 2 points for one team at most (B-42)",
    "sheet_belote_no_trump": "there is no belote-rebelote in a no-trump deal (B-42)",
    "sheet_declarer_alone": "the declarer can take every trick only in his team's kapoot",
    "sheet_penalty_object": "must be an object with kind, team and declaration_points",
    "sheet_whole_number": "must be a whole number from 0 to {high}",
    "sheet_not_allowed": "{value} is not allowed: use {allowed}",
    "sheet_two_numbers": "must be a list of two numbers, team 0 then team 1",
    "sheet_each_number": "each number must be a whole number from 0 to {high}",
    "sheet_card_points_pair": "must be a list of two numbers, team 0 then team 1 (one may be null)",
    "sheet_card_points_range": "each team's card points are a whole number from 0 to {high}",
    "sheet_card_points_needed": "give at least one team's card points",
    "sheet_card_points_sum": "the two teams' card points must add up to {total}, not {sum}",
    "sheet_kapoot_points": "a team that took every trick has all 162 card points",
    "sheet_ruleset": "{ruleset} is not a ruleset: use {rulesets}",
    "sheet_options": 'must be an object such as {"target": 301, "kanach": false}',
    "sheet_teams": "must be a list of two team names",
    "sheet_deal_key": "{key} is not a key of a deal: use {keys}",
    "sheet_key": "{key} is not a key of {what}: use {keys}",
    "sheet_deals_limit": "a sheet holds at most {n} deals",
    "sheet_take_back_last": "only the last deal ({n}) can be taken back",
    "sheet_read_only": "this link only shows the score sheet",
    "score_team": "team must be 0 or 1",
    "score_multiplier": "multiplier must be 1, 2 (contra) or 4 (redouble)",
    "score_level": "level {level} does not exist: levels are 8 to 25, or 30",
    "score_card_points": "card_points must be two numbers from 0 to 162 that add up to 162",
    "score_kapoot": "kapoot must be null, 0 or 1",
    "score_declarations": "declaration_points: only one team's declarations count (B-44)",
    "score_belote": "belote must be 2 points for at most one team",
    "score_kapoot_points": "card_points: a team that took all 8 tricks has all 162 card points",
    "score_declarer_alone": "declarer_alone: the declarer cannot take every trick unless his team does",
    "penalty_kind": "penalty kind must be misdeal or misplay",
    "penalty_team": "penalty team must be 0 or 1",
    "penalty_declarations": "penalty declaration_points must be 0 or more",
    # --- events (the League) --------------------------------------------------------------------------
    "field_too_long_n": "{field} has at most {n} characters",
    "field_control": "{field} may not hold control characters",
    "field_flag": "{field} is true or false",
    "field_whole": "{field} is a whole number between {low} and {high}",
    "no_such_event": "no such event",
    "event_accounts_only": "only an account can run an event: sign up or log in first",
    "event_formats": "format is {formats}",
    "event_no_duplicate": "{game} is not played in duplicate",
    "event_rated_online": "ratings move only with online games: an over-the-board event is not rated",
    "event_duplicate_unrated": "a duplicate round's fixed deals are no game to the end: it cannot be rated",
    "event_duplicate_online": "duplicate is played online: the server deals the same cards at every table",
    "deals_secret": "this table's deals are secret until every table of the round has played them",
    "event_no_davtar": "{game} has no Davtar for referees to keep: its events are online",
    "event_deadline_form": "deadline is a date and time such as 2026-05-01T18:00:00Z",
    "registration_closed_late": (
        "registration is closed: the event has started (only its organizer adds late entries)"
    ),
    "round_robin_no_late": "a round robin's schedule is made at its start: no late entries",
    "late_half_rounds": "late entries are possible until half the rounds are played",
    "deadline_passed": "the registration deadline has passed",
    "event_entry_limit": "an event has at most {n} entries",
    "event_daily_limit": (
        "an account creates at most {n} public events in 24 hours: make this one private, or create it later"
    ),
    "entry_pair_form": "an entry of {game} is a pair of two accounts: usernames is a list of 2",
    "entry_one_form": "an entry of {game} is one account: usernames is a list of 1",
    "pair_twice": "a pair is two different accounts: {name} is named twice",
    "no_such_account": "there is no account {name}",
    "enter_yourself": "you may enter yourself (with your partner); the organizer enters others",
    "referee_cannot_play": "{name} referees a table of this event and cannot also play in it",
    "already_entered": "{name} is already entered in this event",
    "bot_entrants_organizer": "only the event's organizer adds bot entrants",
    "bot_entrants_online": "bots play online: an over-the-board event has no bot entrants",
    "bot_entrant_level": "a bot entrant is a level: {levels}",
    "registration_closed": "registration is closed: the event has started",
    "entry_confirm_own": "only an account of this entry confirms it",
    "no_such_entry": "no such entry in this event",
    "entry_withdraw_who": "only the entry's own accounts or the organizer withdraw it",
    "entry_withdrawn": "that entry has withdrawn already",
    "organizer_adds": "only an organizer of the event adds another",
    "davtar_of_event": "this Davtar is an event's: only its table's referee or the organizers edit it",
    "rounds_organizer": "only the event's organizer starts its rounds",
    "round_being_played": "round {n} is still being played",
    "round_needs_entries": "a round needs at least {n} entries",
    "rounds_all_played": "every round of the event has been played",
    "round_needs_confirmed": "a round needs at least {n} confirmed entries",
    "round_started_already": "round {n} has already been started",
    "schedule_list": "schedule is a list of the rounds' start times, at most {n}",
    "schedule_times": "schedule holds dates and times such as 2026-05-01T18:00:00Z",
    "schedule_order": "schedule lists the rounds' start times in order",
    # --- referees and courts --------------------------------------------------------------------------
    "no_such_event_table": "no such table in this event",
    "referee_only": "only this table's referee does that",
    "referees_organizer": "only the event's organizer assigns referees",
    "question_username": (
        "the question holds a player's username in some spelling: "
        "a court's case names nobody"
    ),
    "question_display_name": (
        "the question holds a display name in some spelling: "
        "a court's case names nobody"
    ),
    "question_pair_name": "the question holds a pair's name in some spelling: a court's case names nobody",
    "referee_stepped_down": "{name} stepped down from this table and cannot referee it again",
    "announce_sheet_only": (
        "only a Davtar's game is announced unfinished or reopened: "
        "an online game is left unfinished by its players at the table"
    ),
    "online_penalty": "an online table's penalties are the server's: record the ruling without one",
    "paused_flag": "paused is true or false",
    "pause_open_online": "only an online table that is open is paused",
    "table_paused": "the referee has paused this table: wait until it is resumed",
    "own_davtar": "you play in this game: nobody keeps or edits the Davtar of his own game (L-6, L-8)",
    "round_awaits_referees": "round {n} waits for a referee at tables {tables}",
    "own_table_referee": "you play at this table: another organizer assigns its referee",
    "referee_username": "username is an account's name, or null",
    "player_cannot_referee": "{name} plays in this event and cannot referee it",
    "announcement_kinds": "an announcement is one of {kinds}",
    "reopen_unfinished_only": "only a game left unfinished is reopened",
    "already_unfinished": "this game is unfinished already",
    "over_not_unfinished": "this game is over: it cannot be left unfinished",
    "court_kind": "court is sages (a question of the rules) or conduct",
    "no_such_case_here": "no such case at this table",
    "court_not_answered": "the court has not answered yet, or its answer was applied already",
    "conflict_players_only": "only a player at this table raises a conflict of interest against its referee",
    "no_referee_now": "this table has no referee now",
    "courts_known": "the League's courts are sages and conduct",
    "court_members_only": "only the members of a court see its cases",
    "no_such_case": "no such case",
    "court_member_answers": "only a member of the case's court answers it",
    "case_answered": "this case has been answered already",
    "events_data_format": "format is json or csv",
    # --- puzzles --------------------------------------------------------------------------------------
    "no_puzzle_left": "no puzzle left to solve: puzzles are mined from the games played here",
    "puzzle_which_card": 'say which card: {"card": "AS"}',
    "puzzle_not_card": "{text} is not a card (a rank and a suit: AS, 10H)",
    "puzzle_card_not_legal": "{card} is not a card the seat to play may play here: {cards}",
    "puzzle_once": (
        "without an account a puzzle is answered once: sign in to try it again and see its solution"
    ),
    # --- unfinished games -----------------------------------------------------------------------------
    "continue_unfinished_only": "only a game ended by agreement is unfinished and can be continued",
    "dishonour_kind": "kind is signals, stakes, cheating, barred_pair or arranged_loss",
    "dishonour_accounts": "usernames is a list of 1 to 4 accounts the dishonour names",
    "dishonour_penance": "penance is warning, bar (until a date) or life",
    "dishonour_until": "a bar for a period needs until: a day after today, such as 2027-05-01",
    "dishonour_until_only_bar": "only a bar for a period has an until day",
    "dishonour_explanation": "the explanation to publish has 1 to 4000 characters",
    "dishonour_concerns": "concerns (the event or game) has at most 200 characters",
    "dishonour_concerns_needed": "concerns (the event or game) is needed without a case",
    "dishonour_case": "case is the number of a case of the Court of Conduct",
    "publish_names_flag": "publish_names is true or false",
    "conduct_members_only": "only a member of the Court of Conduct records or forgives a dishonour",
    "conduct_no_such_case": "the Court of Conduct has no such case",
    "no_such_dishonour": "the register has no such dishonour",
    "dishonour_forgiven": "that dishonour is forgiven already",
    "tars_bar_until": (
        "{a} and {b} suffered tars kapoot on {since}: under the League's rules they may not play "
        "together as partners at a public table or in an event until {until}"
    ),
    "tars_bar_never": (
        "{a} and {b} suffered tars kapoot twice: under the League's rules they may never again "
        "play together as partners at a public table or in an event"
    ),
    "dishonour_bar_until": (
        "{name} is barred by the Court of Conduct (decision {decision}) until {until}: no public "
        "table and no event until then"
    ),
    "dishonour_bar_life": (
        "{name} is barred for life by the Court of Conduct (decision {decision}): no public table "
        "and no event"
    ),
    "continue_players_only": "only the players of an unfinished game continue it",
}

#: Sentences no client request can cause (the server's start, a deal read back from a table's own
#: log, the engines' own checks of what the server gives them): they carry no reason.
INTERNAL: Final[frozenset[str]] = frozenset(
    {
        "cannot listen on {}:{}: {}",
        "the password profile {} is not Argon2id",
        "a table's log starts with its creation",
        "unknown log entry {}",
        "unknown table command {}",
        "this game has no random source: give the cards of the deal",
        "the current deal is not over yet",
        "a game with no counted deal has no winner",
        "the game is not finished: it has no ranking yet",
        "{} is not a game of {}",
        "the text {} is not an action: read it with parse_action first",
        "may_pass needs one flag per seat",
        "{} holds bits that are not cards of the 52-card deck",
        "a 3-5-8 deal needs {} hands",
        "hands must be a list of 3 strings of cards",
        "hands must be a list of 4 strings of cards",
        "a deal needs 4 hands, not {}",
        "seat {} holds {} cards, not 8",
        "seat {} holds {}, not in the 32-card deck",
        "{} dealt twice",
        "the talon must be a string of 4 cards",
        "dealer must be a seat from 0 to 3, not {}",
        "the dealer must be a seat from 0 to 2, not {}",
        "{} {} cards, not {}",
        "{} holds {}, which is not a card",
        "{} appears twice in {}",
    }
)

_FIELD = re.compile(r"\{(\w+)\}")


@cache
def _patterns() -> list[tuple[re.Pattern[str], str]]:
    """Each sentence as a pattern, the most specific first (the longest fixed text): a sentence
    whose variable part could swallow another's fixed words is tried after it."""
    out = []
    for key, sentence in REASONS.items():
        parts = _FIELD.split(sentence)
        regex = "".join(re.escape(p) if i % 2 == 0 else f"(?P<{p}>.+?)" for i, p in enumerate(parts))
        fixed = sum(len(p) for p in parts[::2])
        out.append((fixed, re.compile(f"^{regex}$", re.S), key))
    out.sort(key=lambda x: -x[0])
    return [(pattern, key) for _, pattern, key in out]


def reason_of(message: str, depth: int = 0) -> tuple[str, dict[str, Any]] | None:
    """The key and the variable parts of a refusal's sentence, or None when it is not one of the
    catalogue's (a message from elsewhere: the page then shows the sentence as it is)."""
    for pattern, key in _patterns():
        found = pattern.match(message)
        if found is None:
            continue
        params: dict[str, Any] = {}
        for name, value in found.groupdict().items():
            inner = reason_of(value, depth + 1) if depth < 2 else None
            params[name] = value if inner is None else {"reason": inner[0], "params": inner[1]}
        return key, params
    return None


def with_reason(answer: dict[str, Any], message: str) -> dict[str, Any]:
    """An error answer with the ``reason`` and ``params`` of its sentence, when it has them."""
    found = reason_of(message)
    if found is not None:
        answer["reason"], answer["params"] = found
    return answer
