#!/usr/bin/python3
"""Step 2 of the corpus recipe: turns every usable sound of the unpacked packages (and TTS, MIDI
renderings, sox-made noise) into 16 kHz mono clips under $CACHE/clips, each with a class, a source
id (a voice, a track, an effect file) and the split its source falls in; writes the clip index
$CACHE/<recipe>/clips.tsv (corpus_common.clips_index).

Resumable: a clip whose wav exists is not made again. Usage: clips.py [--only pkgs|tts|midi|synth]
"""
import argparse
import fnmatch
import glob
import hashlib
import os
import random
import re
import subprocess
import sys
import zipfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from corpus_common import (SR, cache_dir, log, assign_splits, source_family,  # noqa: E402
                           unit_hash, frame_db, activity, clips_index,
                           read_wav, write_wav)

CACHE = cache_dir()
PKGS = os.path.join(CACHE, "pkgs")
CLIPS = os.path.join(CACHE, "clips")
AUDIO_EXT = {".ogg", ".wav", ".flac", ".gsm", ".mp3", ".oga", ".au", ".wv", ".g722"}
MIDI_EXT = {".mid", ".midi"}

# Hedgewars voice files that are vocal but not words (grunts, laughs, coughs): not used at all,
# so that no class learns them by accident.
HEDGEWARS_NONWORDS = re.compile(
    r"^(firepunch\d|jump\d|laugh|ooff\d|ow\d|poisoncough|poisonmoan|hmm|nooo|ouch)\.", re.I)
# In effect folders, names that suggest a voice or music: skipped so the noise class stays clean.
NOT_NOISE = re.compile(
    r"voice|speech|talk|vox|/vo_|narrat|dialog|taunt|shout|scream|laugh|yell|grunt|cheer|crowd|"
    r"death|die\b|dying|hurt|pain|cry|sing|choir|jingle|fanfare|music|theme|victory|"
    r"intro|outro|/units?/|/heroes?/|/speak|/announcer|/tutorial|/lang", re.I)
# tuxpaint stamps: melodic instruments play a phrase (music, not noise as in corpus-v1);
# percussion hits, spoken digits/letters/dreidel letters and emotion faces are neither.
TUXPAINT_MELODIC = re.compile(r"^(bassoon|cello|violin)\.", re.I)
TUXPAINT_NOT_NOISE = re.compile(
    r"^(\d+|[a-z]_with_umlaut.*|ss_eszett.*|dreydl-.*|happy|sad|mad|excited|santahat|ghost|"
    r"xing_school|final-roll-call|xanthia|cymbal.*|drum.*|mallet.*|apollo_lander)\.", re.I)
# supertux, cube2, tuxtype, widelands effects that are voices, jingles or instruments
SUPERTUX_NOT_NOISE = re.compile(
    r"^(excellent|welldone|grunts|hurt|yeti_.*|tada|lifeup|savebell.*|upgrade|invincible_start|"
    r"phone|kill|mr_tree.*|tree_howling)\.", re.I)
CUBE2_NOT_NOISE = re.compile(r"/(0ad|olpc/(?!MichaelBierylo|Berklee))|/(pain|die|grunt)\d", re.I)
TUXTYPE_NOT_NOISE = re.compile(r"^(excuseme|cheer|harp|win|winfinal|lose)\.", re.I)
MUSIC_DIR = re.compile(r"/(music|musics|soundtrack|tracks)/", re.I)
EFFECT_DIR = re.compile(r"sound|sfx|ambien|effect|/audio/", re.I)


def classify(pkg, rel):
    """(class, group, source id) for one file of an unpacked package, or None to skip it."""
    low = rel.lower()
    base = os.path.basename(rel)
    ext = os.path.splitext(low)[1]
    if pkg in DRASCULA_VOICES:
        return classify_drascula(pkg, base)
    if ext in MIDI_EXT:
        # rendered through soundfonts (render_midi); Frets on Fire's notes.mid are the
        # game's note charts, not music
        if pkg.startswith("fretsonfire-songs-"):
            return None
        return ("music", "midi", "%s:%s" % (pkg, rel.lstrip("/")))
    if ext not in AUDIO_EXT or "/doc/" in low:
        return None
    if pkg == "fillets-ng-data-cs":
        # level-SPEAKER-line.ogg, or SPEAKER-line.ogg in a few levels
        parts = base.split("-")
        if len(parts) < 2:
            return None
        return ("speech", "real", "fillets-cs:" + (parts[1] if len(parts) > 2 else parts[0]))
    if pkg == "tuxpaint-stamps-default":
        # corpus-v1 missed the pt_BR readings (*_desc_pt_BR.wav) and filed them as noise
        m = re.search(r"_desc(?:_([A-Za-z@_]+))?\.(?:ogg|wav)$", base)
        if m:
            return ("speech", "real", "tuxpaint:" + (m.group(1) or "en"))
        if re.search(r"_[a-z]{2,3}(_[A-Z]{2})?\.(ogg|wav)$", base):
            return None  # a spoken name in one language (7_en_GB.ogg), not an effect
        if TUXPAINT_MELODIC.match(base):
            return ("music", "recorded", "%s:%s" % (pkg, rel))  # a phrase played on it
        if TUXPAINT_NOT_NOISE.match(base):
            return None
        return ("noise", "effects", "%s:%s" % (pkg, rel))
    if pkg == "hedgewars-data":
        m = re.search(r"/sounds/voices/([^/]+)/", low)
        if m:
            if HEDGEWARS_NONWORDS.match(base):
                return None
            return ("speech", "real", "hedgewars:" + m.group(1))
        if "/music/" in low:
            return ("music", "recorded", "%s:%s" % (pkg, rel))
        # its sounds include a voice (Yoohoo) and single piano notes (1C.ogg to 9D.ogg)
        if re.search(r"/data/sounds/(yoohoo|\d[a-g])\.ogg$", low):
            return None
        if re.search(r"/data/sounds/[^/]+$", low) and not NOT_NOISE.search(low):
            return ("noise", "effects", "%s:%s" % (pkg, rel))
        return None
    if pkg.startswith("asterisk-"):
        if "/silence/" in low or re.search(r"beep|tone|silence", base, re.I):
            return None
        m = re.match(r"asterisk-core-sounds-(\w+)-g722$", pkg)
        if m:
            # the same voice (and prompts) as -<lang>-wav at 16 kHz: one source, so one split
            return ("speech", "real", "asterisk-core-sounds-%s-wav" % m.group(1))
        return ("speech", "real", pkg)
    if pkg in ("klettres-data", "ktuberling-data"):
        m = re.search(r"/(?:klettres|ktuberling/sounds)/([^/]+)/", low)
        if not m:
            return None
        return ("speech", "isolated", "%s:%s" % (pkg.split("-")[0], m.group(1)))
    if pkg == "gcin-voice":
        return ("speech", "isolated", "gcin")
    if pkg == "fillets-ng-data":
        # level folders mix words and grunts: only the soundtrack and the shared effects
        # (sound/music/en/ holds spoken lines, not music)
        if "/music/" in low and "/sound/music/" not in low:
            return ("music", "recorded", "%s:%s" % (pkg, rel))
        if "/sound/share/" in low:
            return ("noise", "effects", "%s:%s" % (pkg, rel))
        return None
    if pkg in GAME_LINES:
        line = GAME_LINES[pkg](low, base)
        if line:
            return ("speech", "lines", line)
    if pkg == "megaglest-data" and ("/units/" in low or "/upgrades/" in low or
                                    re.search(r"_(ack|select|die|attack|hit|work_end|heal)\d",
                                              base) or "good_morning" in base):
        return None  # battle cries and death cries are vocal, not speech: neither class
    if pkg == "freedink-data" and ext == ".ogg":
        return ("music", "recorded", "%s:%s" % (pkg, rel))  # its Sound/ holds tracks too
    if pkg == "supertuxkart-data" and re.search(
            r"wilhelm|airport|radio|restaurant|ugh|wee|flute|goal|race_finish|gp_end|"
            r"track_intro|fireworks|start_race", base, re.I):
        return None  # voices, crowds and jingles
    if pkg == "supertuxkart-data" and "/data/tracks/" in low:
        # a race track's own sounds: a few soundtracks among engines, animals and a villain's
        # speech (corpus-v5 filed them all as music by the folder name, audit.py found them)
        if re.match(r"(gran_paradiso|battle_theme|beneath_the_rabbit_hole)", base, re.I):
            return ("music", "recorded", "%s:%s" % (pkg, rel))
        if base == "nolok_speech.ogg":
            return ("speech", "lines", "supertuxkart:nolok")
        if re.match(r"(steamlocomotive|cow|sheep|spaceship_engine\w*|button|bzzt\d)\.ogg$", low
                    .rsplit("/", 1)[1]):
            return ("noise", "effects", "%s:%s" % (pkg, rel))
        return None  # intro2.ogg, hot.ogg: not clear which
    if pkg == "freedroidrpg-data":
        # Tux's in-game comments are spoken lines; the bots and shop sounds speak or beep
        if "/tux_ingame_comments/" in low:
            return ("speech", "lines", "freedroidrpg:tux")
        if re.search(r"/bot_sounds/|/shop_item|thouartdefeated|spell_forcetoenergy", low):
            return None
    if pkg == "frozen-bubble-data":
        if "zik" in base:
            return ("music", "recorded", "%s:%s" % (pkg, rel))
        if "/snd/" in low and not re.search(r"snore|noh|chatted|hurry", base):
            return ("noise", "effects", "%s:%s" % (pkg, rel))
        return None
    if pkg == "lincity-ng-data" and re.search(
            r"market|school|health|university|commune|residence|sport|monument|substation|"
            r"pottery", low):
        return None  # may carry crowd voices; the substation speaks
    if pkg == "redeclipse-data":
        # player, voice, announcer and interface sounds are voices or beeps: left out
        if "/sounds/music/" in low or re.search(r"/sounds/(theme\w*|original)\.ogg$", low):
            return ("music", "recorded", "%s:%s" % (pkg, rel))
        if re.search(r"/sounds/(ambience|weapons)/", low) and "wakawaka" not in base:
            return ("noise", "effects", "%s:%s" % (pkg, rel))
        if "/sounds/sfx/" in low and not re.match(r"(alarm|chat|error|critical|\w*damage\d*)\.",
                                                  base):
            return ("noise", "effects", "%s:%s" % (pkg, rel))
        return None
    if pkg == "openclonk-data":
        # Music.ocg is a folder; the effects sit in packed c4group archives (not read)
        if "/music.ocg/" in low:
            return ("music", "recorded", "%s:%s" % (pkg, rel))
        return None
    if pkg == "supertux-data":
        if "/speech/" in low or SUPERTUX_NOT_NOISE.match(base):
            return None
    if pkg == "pingus-data" and re.match(r"(goodidea|letsgo|ohno|yipee)\.", base):
        return None  # the pingus speak
    if pkg.startswith("fretsonfire-songs-"):
        # each song folder holds the band (song.ogg) and its lead guitar (guitar.ogg): one
        # source, so both land in one split
        if base in ("song.ogg", "guitar.ogg"):
            return ("music", "recorded", "%s:%s" % (pkg, os.path.basename(os.path.dirname(rel))))
        return None
    if pkg == "qabcs-data":
        return classify_qabcs(low)
    if pkg == "boswars-data" and "/campaigns/tutorial/" in low:
        return ("speech", "real", "boswars:tutorial")  # the tutorial's narrator, 1.1 min
    if pkg == "boswars-data" and "/units/buggy/" in low:
        return ("speech", "lines", "boswars:buggy")  # its driver speaks in all five files
    if pkg == "plee-the-bear-data" and "/music/" in low:
        # music/sequencer/<song>/ holds the stems (guitar, bass, backing) of music/<song>.ogg:
        # one source with the mix, so they land in one split; 1-up and game-over are jingles
        m = re.search(r"/music/(?:sequencer/)?([\w-]+)(?:/|\.ogg$)", low)
        if not m or m.group(1) in ("1-up", "game-over"):
            return None
        return ("music", "recorded", "%s:%s" % (pkg, m.group(1)))
    if pkg in PATH_RULES:
        return classify_by_path(pkg, low, "%s:%s" % (pkg, rel))
    if pkg == "cube2-data" and CUBE2_NOT_NOISE.search(low):
        return None
    if pkg == "tuxtype-data":
        if "/themes/" in low or TUXTYPE_NOT_NOISE.match(base):
            return None
        if ext == ".ogg":
            return ("music", "recorded", "%s:%s" % (pkg, rel))  # its sounds/ holds tracks too
        return ("noise", "effects", "%s:%s" % (pkg, rel))
    if pkg == "widelands-data" and re.search(r"/sound/(military/|[^/]+\.ogg$)", low):
        return None  # horns and message chimes, lobby chat notices
    if pkg in ("hyperrogue-music", "colobot-common-sounds", "drascula-music"):
        # only their soundtracks: hyperrogue's and colobot's effects include creature voices
        # and robot speech; drascula-music keeps its tracks in audio/
        if re.search(r"/(music|audio)/", low):
            return ("music", "recorded", "%s:%s" % (pkg, rel))
        return None
    if pkg == "minetest-data" and re.search(r"player_damage|soundstuff|/devtest/", low):
        return None  # a grunt, test tones
    if MUSIC_DIR.search(low):
        return ("music", "recorded", "%s:%s" % (pkg, rel))
    if EFFECT_DIR.search(low) and not NOT_NOISE.search(low):
        return ("noise", "effects", "%s:%s" % (pkg, rel))
    return None


# corpus-v5: short acted game lines (announcers, unit acknowledgements, called tiles), a
# speech group of their own ("lines"): the kind of short utterance the isolated-word row
# missed, spoken by voices no other package has. Each function maps a lower-cased path and
# file name to a source id (one voice), or None where the file is not a spoken line.
# MegaGlest's units: only human ones; monsters, animals and spirits growl (daemon_* also
# voices the norse battleaxes), and attack/die/hit files are battle and death cries. The
# dragon rider's dr_* files are its dragon's roars (Silero VAD hears no speech in them;
# corpus-v5 to corpus-v7 filed them as lines): left out from corpus-v8 on.
MEGAGLEST_HUMANS = re.compile(
    r"^(archer|archmage|axe_thrower|guard|horseman|swordman|technician|worker|spearman|shaman|"
    r"stickfighter|battlemage|initiate|summoner|cudgel|valkyrie|princess)_(ack|select)\d+\.wav$")
# Red Eclipse's taunts without the laughs, cries and effects (argh, haha, boom, pzap)
REDECLIPSE_WORDS = re.compile(
    r"^(damnit|gogogo|hangon|luckyshot|niceshot|no|noproblem|sorry|suckit|thanks|yes)2?\.ogg$")
# Neverball's spoken words; its other sounds (ball, bump, coin, goal cheer, tick) are effects
NEVERBALL_WORDS = re.compile(
    r"^(birdie|bogey|double|eagle|fall|go|one|over|par|penalty|player\d|ready|record|select|"
    r"set|success|time)\.ogg$")


def megaglest_line(low, base):
    m = MEGAGLEST_HUMANS.match(base)
    if not m:
        return None
    f = re.search(r"/factions/([^/]+)/", low)
    return "megaglest:%s:%s" % (f.group(1) if f else "common", m.group(1))


def redeclipse_line(low, base):
    if "/sounds/announcer/" in low:
        return "redeclipse:announcer"
    if "/sounds/voice/" in low and REDECLIPSE_WORDS.match(base):
        return "redeclipse:taunts"
    return None


def kajongg_line(low, base):
    # one folder per voice and language; the same three speakers recorded both languages, so
    # the source is the speaker (the ARTIST tag: male1 Wolfgang, female1 Petra, female2 Maria,
    # de/male2 Klaus; English male2 is untagged)
    m = re.search(r"/voices/(?:(de)/)?(\w+)/[^/]+\.ogg$", low)
    if not m:
        return None
    speaker = {"male1": "wolfgang", "female1": "petra", "female2": "maria"}.get(m.group(2))
    if speaker is None:
        speaker = "klaus" if m.group(1) == "de" else "en-male2"
    return "kajongg:" + speaker


def neverball_line(low, base):
    if "/snd/" not in low or not NEVERBALL_WORDS.match(base):
        return None
    return "neverball:" + ("gd" if "/snd/gd/" in low else "default")


GAME_LINES = {"megaglest-data": megaglest_line, "redeclipse-data": redeclipse_line,
              "kajongg": kajongg_line, "neverball-common": neverball_line}


# corpus-v6 and corpus-v7: more soundtracks (rock, metal, electronic, orchestral, ambient)
# and more ambience, from games no earlier recipe read. Per package, regular expressions on
# the lower-cased path: `music` and `noise` pick the soundtrack and the effects, `skip`
# leaves out what is vocal (creatures, deaths, laughs) or unclear, `lines` picks spoken
# lines and names their voice by its first group (or by `voice`).
PATH_RULES = {
    "flare-game": dict(  # wind_ambient.ogg is a wind loop among the tracks
        music=r"/music/(?!wind_ambient)", noise=r"/soundfx/|/wind_ambient\.ogg$",
        skip=r"/enemies/|_die|_hit|level_up",
        lines=r"/soundfx/npcs/(female|male)_"),  # merchants greet the player
    "unknown-horizons": dict(
        music=r"/audio/music/", noise=r"/audio/sounds/",
        skip=r"/events/|tavern|chapel|main_square|success|invalid",
        lines=r"/audio/voice/(\w+)/"),  # the campaign's narrator, one voice per language
    "marsshooter-data": dict(
        music=r"/audio/music/", noise=r"/audio/toon/", skip=r"/(countdown|start|score)\.",
        lines=r"/audio/(announcer)/"),
    "lugaru-data": dict(  # the fighters' cries and the wolves' growls are left out
        music=r"/music[^/]*$", noise=r".", skip=r"/(rabbit|growl|snarl|bark)[^/]*$"),
    "scorched3d-data": dict(music=r"/data/music/", noise=r"/data/wav/",
                            skip=r"/(text|play)\.wav$"),
    "btanks-data": dict(music=r"/data/tunes/", noise=r"/data/sounds/",
                        skip=r"/menu/|deadman|laugh|scream|zombie|klaxon-funny"),
    "trackballs-data": dict(
        music=r"/music/", noise=r"/sfx/",
        skip=r"/(crazylaugh|evillaugh|capuch\w*|die|levelcomplete|time_warning|timeout|"
             r"savepoint|flag|start)\.wav$"),
    "endless-sky-data": dict(noise=r"/sounds/"),
    # corpus-v7
    "berusky2-data": dict(  # voc*, the village and the prayers hold voices (Silero VAD)
        music=r"/berusky2/music/.*\.ogg$", noise=r"/sound/sound/.*\.wav$",
        skip=r"/(voc\d|village|pray\d|hopla?\d|juch\d|eat\d|balance\d)\.wav$"),
    "enigma-data": dict(music=r"/music/(game|menu)/", noise=r"/soundsets/enigma/"),
    "adonthell-data": dict(music=r"/audio/at-demo"),
    "holotz-castle-data": dict(music=r"/hc(credits|maintitle)"),  # the rest are jingles
    "funnyboat": dict(music=r"/jdruid-trip", noise=r"/data/(blub|kraah|pam|poks)\.ogg$"),
    "tecnoballz-data": dict(noise=r"/sounds/", skip=r"/rtecno\.wav$"),  # its music is .mod
    "powermanga-data": dict(noise=r"/sounds/sound_.*\.wav$"),  # its music is .zik
    "lbreakout2-data": dict(  # an announcer's few words among the effects
        noise=r"/sounds/", lines=r"/sounds/(dammit|damn|excellent|verygood|wontgiveup)\.wav$",
        voice="announcer"),
    "chromium-bsu-data": dict(music=r"/wav/music_", noise=r"/wav/"),
    "solarwolf": dict(music=r"/data/music/.*\.ogg$", noise=r"/data/audio/",
                      skip=r"/(vaauw|gameover|startup)\.wav$"),
    "ri-li-data": dict(noise=r"/sounds/.*\.wav$"),
    # corpus-v9
    "naev-data": dict(music=r"/snd/music/", noise=r"/snd/sounds/", skip=r"/hail\."),
    "starfighter-data": dict(music=r"/starfighter/music/", noise=r"/starfighter/sound/",
                             skip=r"/maledeath\."),
    "ardentryst": dict(  # its heroes' cries and monsters sit in sub-folders, not read
        music=r"/ardentryst/music/", noise=r"/ardentryst/sounds/[^/]+$",
        skip=r"/(maea|obelisk|newgame|chimegliss|treasure)\.ogg$",  # jingles
        lines=r"/sounds/voi_intro_\d", voice="narrator"),
    "netpanzer-data": dict(  # the units answer orders over the radio
        noise=r"/sound/", skip=r"/(attack|scream\w*)\.wav$",
        lines=r"/sound/(move_|target_|yessir|\w\w-selected_)", voice="radio"),
    "freeciv-data": dict(music=r"/stdmusic/", noise=r"/stdsounds/"),
    "tuxfootball": dict(music=r"/sound/(titlemusic|ingame)\.ogg$", noise=r"/sound/",
                        skip=r"/crowd"),  # the crowd cheers and boos: voices
    "sonic-pi-samples": dict(  # loops and phrases; single drum hits are neither class
        music=r"/samples/(loop_(?!3d_printer)|guit_|ambi_(piano|choir|drone|lunar_land|"
              r"glass_hum|haunted_hum))",
        noise=r"/samples/(vinyl_|misc_(crow|cineboom)|loop_3d_printer|perc_(door|swoosh|"
              r"swash|impact))"),
    # corpus-v10 (every speech file checked with Silero VAD and the shipped model first)
    "micropolis-data": dict(  # the city's announcer names zones and tools; both hear speech
        # in these; its quacks (a voice too), grunts, honks (model and Silero disagree) and
        # tones are left out, and so are the 8 kHz copies (*-hi.wav, quack.wav)
        lines=r"/sounds/(airport|bulldozer|chalk|coal|com|eraser|fire|heavytraffic|ind|"
              r"nuclear|park|police|rail|res|road|seaport|stadium|wire|zone)\.wav$",
        voice="announcer", noise=r"/sounds/(explosion-(high|low)|siren|rumble|ignition)\.wav$"),
    "boswars-data": dict(  # the narrator's notices ("aircraft factory completed", "under
        # attack", "ready"; the buggy's driver: classify()); the destroyer's are radio-
        # distorted (the model hears noise), the units' select/action/die files are grunts
        # and effects mixed: left out
        lines=r"/units/(?!destroyer/)[^/]+/[\w.]+\.(completed|underattack|ready)\.wav$",
        voice="notices",
        noise=r"/sounds/\w+_g_hit\.wav$|/units/[^/]+/(sfx_[\w.]+|\w+_attack)\.wav$"),
    "wordwarvi-sound": dict(  # destiny_facedown is speech over music (Silero: 28 of 52 s);
        # help_*_here, hohoho, yay_santa and woohoo: Silero hears no speech; screams, grunts
        music=r"/sounds/(dtox3monomix|lucky-holiday[\w-]*|lucky13[\w-]*|highscoremusic)\.ogg$",
        lines=r"/sounds/(usethesource|nice_bank_shot|ow_my_spine)\.ogg$", voice="voices",
        noise=r"/sounds/", skip=r"/(destiny_facedown|aaaah_it_burns|abducted|fallingscreamhi|"
                             r"help_\w+|hohoho\w*|woohoo|yay_santa|ooooof|gunwheel_sound|"
                             r"timpani_boing|missile_alarm_2)\.ogg$"),
    "singularity-music": dict(music=r"/singularity/music/"),
    "asc-music": dict(music=r"/asc/music/"),  # mp3, read by sox
    "lordsawar-data": dict(music=r"/lordsawar/music/(?!bless\.)"),  # bless: a 2 s jingle
    "searchandrescue-data": dict(  # splash01.wav is a MIDI file under a .wav name
        music=r"/music/(?!splash01)\w+\.wav$", noise=r"/searchandrescue/sounds/"),
    "plee-the-bear-data": dict(  # its music: classify(); frogs, the bear's own sounds
        # (grunts, snore), the growl, single notes (scale/) and jingles are left out
        noise=r"/sound/", skip=r"/(frog|plee|scale)/|/(grr|dummy|jump|checkpoint-ding|"
                               r"corrupting-bonus)\.|/sequencer/fail\."),
    "glob2-data": dict(music=r"/data/zik/"),
    "brainparty-data": dict(  # sheep and cat (Silero hears speech in the baas) and the
        # interface's jingles and tones are left out
        music=r"/electricity\.ogg$", noise=r"/brainparty/[^/]+\.wav$",
        skip=r"/(baa\d?|meow|happy_ring|result|correct|wrong\d?|beep_hi)\.wav$"),
}


# corpus-v10: qABCs' spoken words and letters, one word a file. Only English names its
# speaker (Jordan Irwin, the voice of MyABCs, from which qABCs took it): a real voice, the
# isolated-word group. The other languages name no speaker; upstream credits Google's
# text-to-speech and ships the scripts that made them (Google Cloud TTS, a female Standard
# voice a language, a male one for German), and they look it: 24 kHz (Polish 22.05 kHz),
# the same 40-50 ms of lead-in and 70 ms of tail on every file (Ukrainian: band-limited to
# 10 kHz and padded to 0.5 s), the voices' sexes those the scripts name: filed as TTS.
# Its all/noises (the pictured things: instruments, animals, vehicles) are mixed classes
# and all/sounds/cheering.ogg is a crowd: not read.
QABCS_TTS = ("be", "de", "en_gb", "fr", "pl", "ru", "uk")


def classify_qabcs(low):
    m = re.search(r"/abcs/(\w+)/sounds/(alpha|words)/[^/]+$", low)
    if not m:
        return None
    if m.group(1) == "en":
        return ("speech", "isolated", "qabcs:en")
    if low.endswith("/en_gb/sounds/words/doughnut.ogg"):
        return None  # English's donut.ogg again (the same recording), not a TTS voice
    if m.group(1) in QABCS_TTS:
        return ("speech", "tts", "qabcs:" + m.group(1))
    return None


# corpus-v10: tracks of one package that share much of their audio (the same loops or a
# variation of one piece: 8 s excerpts of one find the other at a normalised cross-correlation
# of 0.5 to 0.95, in most excerpts) are one source, so they land in one split.
SHARED_MUSIC = {
    "singularity-music": [
        ("coherence+4", r"/(coherence|inevitable|deprecation|enemy unknown|apex aleph)\.ogg$"),
        ("advanced-simulacra+1", r"/(advanced simulacra|march thee to dis)\.ogg$")],
    "wordwarvi-sound": [("lucky+1", r"/lucky(-holiday|13)[\w-]*\.ogg$")],
    "glob2-data": [("a1+a2", r"/zik/a[12]\.ogg$")],
}


def classify_by_path(pkg, low, src):
    rule = PATH_RULES[pkg]
    if "music" in rule and re.search(rule["music"], low):
        for name, members in SHARED_MUSIC.get(pkg, ()):
            if re.search(members, low):
                return ("music", "recorded", "%s:%s" % (pkg, name))
        return ("music", "recorded", src)
    m = re.search(rule["lines"], low) if "lines" in rule else None
    if m:
        return ("speech", "lines", "%s:%s" % (pkg.split("-data")[0].replace("-game", ""),
                                              rule.get("voice") or m.group(1)))
    if "noise" in rule and re.search(rule["noise"], low) and \
            not ("skip" in rule and re.search(rule["skip"], low)):
        return ("noise", "effects", src)
    return None


def classify_nexuiz(rel):
    """Nexuiz's soundtrack (music.pk3, a zip): electronic and metal tracks, and a thunder.
    digital-pursuit is sung or rapped nearly throughout (Silero VAD hears speech in 91% of
    it): left out rather than taught as music."""
    low = rel.lower()
    if os.path.splitext(low)[1] not in AUDIO_EXT or re.search(r"thunder|digital-pursuit", low):
        return None
    return ("music", "recorded", "nexuiz-music:" + rel)


def clip_path(cls, pkg, key):
    return os.path.join(CLIPS, cls, pkg, "%012x.wav" % int(unit_hash(key) * (1 << 48)))


def convert(src, dst, tool, cmd):
    """Runs cmd (which writes dst + ".tmp.wav"), then renames the result to dst: a stop
    never leaves a half-written clip. On failure logs why and returns False."""
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    tmp = dst + ".tmp.wav"
    r = subprocess.run(cmd(tmp), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if r.returncode != 0:
        log("skip %s: %s: %s" % (src, tool, r.stderr.decode(errors="replace").strip()[:200]))
        if os.path.exists(tmp):
            os.remove(tmp)
        return False
    os.replace(tmp, dst)
    return True


def sox_convert(src, dst, extra_in=()):
    """Any audio file to a 16 kHz mono 16-bit clip: sox, or ffmpeg for formats sox cannot
    read (raw G.722 bitstreams)."""
    if src.endswith(".g722"):
        return convert(src, dst, "ffmpeg", lambda tmp: [
            "ffmpeg", "-nostdin", "-v", "error", "-y", "-f", "g722", "-i", src,
            "-ac", "1", "-ar", str(SR), "-c:a", "pcm_s16le", tmp])
    return convert(src, dst, "sox", lambda tmp: ["sox", "-V1", "-R", "-G"] + list(extra_in) +
                   [src, "-b", "16", "-c", "1", tmp, "rate", str(SR)])


def unpack_zip(pkg, archive, folder):
    """Packages that keep their audio inside a zip (0 A.D.'s public.zip, trigger-rally's
    data.zip, UFO:AI's 0snd.pk3): pull out `folder` only, once, into pkgs/<pkg>/_audio."""
    dest = os.path.join(PKGS, pkg, "_audio")
    if os.path.exists(os.path.join(dest, ".done")):
        return
    zips = glob.glob(os.path.join(PKGS, pkg, "**", archive), recursive=True)
    if not zips:
        return
    log("unzip %s %s from %s" % (pkg, folder, zips[0]))
    with zipfile.ZipFile(zips[0]) as z:
        for name in z.namelist():
            if name.startswith(folder) and not name.endswith("/"):
                z.extract(name, dest)
    open(os.path.join(dest, ".done"), "w").close()


# Nexuiz's players call to their team ("cover me", "incoming"), nine voices; their taunts
# (laughs among them), pains, deaths, jumps and gasps are left out.
NEXUIZ_CALLS = re.compile(
    r"^(attack\d?|attackinfive|coverme|defend|freelance\d|incoming|meet|needhelp\d?|seenflag|"
    r"flagseen|teamshoot\d?|waypoint|letsgo|getourflagback|flagcarriertakingdamage)\.ogg$")


def classify_nexuiz_data(rel):
    """corpus-v9: Nexuiz's data.pk3 sound/: the players' team calls and the two announcers
    (one a robot voice) as lines, the tutorial's narrator as real speech, ambience, weapons
    and machines as noise."""
    low = rel.lower()
    base = os.path.basename(low)
    if os.path.splitext(low)[1] not in AUDIO_EXT:
        return None
    m = re.search(r"/sound/player/([^/]+)/", low)
    if m:
        if "/player/" in low.split("/sound/player/", 1)[1] or not NEXUIZ_CALLS.match(base):
            return None
        return ("speech", "lines", "nexuiz:" + m.group(1))
    m = re.search(r"/sound/announcer/(male|robotic)/", low)
    if m:
        return None if base == "welcome.ogg" else ("speech", "lines", "nexuiz:" + m.group(1))
    if "/sound/tutorial/" in low:
        # misc-door is a door
        return None if base == "misc-door.ogg" else ("speech", "real", "nexuiz:tutorial")
    if re.search(r"/sound/(ambient|desertfactory|weapons|misc|onslaught|porto|weather|plats|"
                 r"turrets|nexball|cyberparcour01)/", low) and not NOT_NOISE.search(low) and \
            not re.search(r"radio|talk|hitsound|typehit", base):
        return ("noise", "effects", "nexuiz-data:" + rel)
    return None


def classify_trigger(rel):
    """Co-driver pace notes are real speech (three voices); engine, gravel, wind are noise."""
    low = rel.lower()
    if os.path.splitext(low)[1] not in AUDIO_EXT:
        return None
    m = re.search(r"/codriver/([^/]+)/", low)
    if m:
        return ("speech", "real", "trigger-codriver:" + m.group(1))
    return ("noise", "effects", "trigger-rally-data:" + rel)


def classify_0ad(rel):
    low = rel.lower()
    if os.path.splitext(low)[1] not in AUDIO_EXT:
        return None
    if "/audio/music/" in low:
        return ("music", "recorded", "0ad:" + rel)
    m = re.search(r"/audio/voice/(\w+)/civ/civ_(female|male)_(\w+?)_?\d*\.ogg$", low)
    if m:
        # a civilisation's citizens answer orders in its ancient language, one female and one
        # male voice each; "attack" lines are battle cries
        if m.group(3) == "attack":
            return None
        return ("speech", "lines", "0ad:%s:%s" % (m.group(1), m.group(2)))
    if "/audio/ambient/" in low or "/audio/actor/" in low or "/audio/attack/" in low:
        # human actors shout and groan: left out with everything voice-like
        if NOT_NOISE.search(low.split("/audio/", 1)[1]) or "/voice/" in low or \
                "/actor/human/" in low:
            return None
        return ("noise", "effects", "0ad:" + rel)
    return None


# Drascula's voice files: raw 8-bit unsigned PCM at 11025 Hz (*.ALS), one package per language
# (different actors). The letters before the number name the speaker (none: the hero, D:
# Drascula, VB: Von Braun, ...); S<n> are sound effects.
DRASCULA_VOICES = {"drascula": "en", "drascula-spanish": "es", "drascula-italian": "it"}
DRASCULA_RAW = ["-t", "raw", "-r", "11025", "-e", "unsigned", "-b", "8", "-c", "1"]


def classify_drascula(pkg, base):
    m = re.match(r"([A-Za-z]*)\d+\.als$", base, re.I)
    if not m or m.group(1).upper() == "S":
        return None
    speaker = m.group(1).upper() or "hero"
    return ("speech", "real", "drascula:%s:%s" % (DRASCULA_VOICES[pkg], speaker))


# UFO:AI's effects (0snd.pk3, a zip): ambience loops (fire, water, wind, machines, crickets),
# impacts, weapons, doors, footsteps, vehicles. Soldiers, civilians and aliens scream; the
# ambience's disco, jingles, radio message and TV news hold music or speech.
UFOAI_NOT_NOISE = re.compile(r"disco|jingle|radiomessage|tv_news|aliencom|lobbyprivmsg|popup|"
                             r"roundstart|talk", re.I)


def classify_ufoai(rel):
    low = rel.lower()
    if os.path.splitext(low)[1] not in AUDIO_EXT or UFOAI_NOT_NOISE.search(low):
        return None
    if re.search(r"/sound/(ambience|impact|weapons|doors|footsteps|misc|ugv)/", low):
        return ("noise", "effects", "ufoai:" + rel)
    return None


# Packages whose audio sits in an archive: (archive, folder in it, classifier of the
# unpacked files' paths under _audio/). UFO:AI's source ids were made with a leading "/".
ZIPPED = {
    "0ad-data": ("public.zip", "audio/", classify_0ad),
    "trigger-rally-data": ("data.zip", "sounds/", classify_trigger),
    "ufoai-sound": ("0snd.pk3", "sound/", lambda rel: classify_ufoai("/" + rel)),
    "nexuiz-music": ("music.pk3", "sound/cdtracks/", classify_nexuiz),
    "nexuiz-data": ("data.pk3", "sound/", classify_nexuiz_data),
}


def listed_packages():
    """packages.tsv minus reserved.txt (checked again here, not only at download)."""
    here = os.path.dirname(os.path.abspath(__file__))
    reserved = [ln.strip() for ln in open(os.path.join(here, "reserved.txt"))
                if ln.strip() and not ln.startswith("#")]
    out = []
    for ln in open(os.path.join(here, "packages.tsv"), encoding="utf-8"):
        pkg = ln.split("\t")[0].strip()
        if not pkg or pkg.startswith("#"):
            continue
        if any(fnmatch.fnmatch(pkg, r) for r in reserved):
            raise SystemExit("packages.tsv lists %s, which is reserved for evaluation" % pkg)
        out.append(pkg)
    return out


def package_files(only):
    """Yields (package, absolute path, relative path, classification) for every usable file."""
    for pkg in listed_packages():
        d = os.path.join(PKGS, pkg)
        if only and pkg not in only:
            continue
        if not os.path.exists(os.path.join(d, ".done")):  # an index without it would be short
            raise SystemExit("clips.py: %s is not fetched (no %s/.done): run fetch.sh first"
                             % (pkg, d))
        zipped = ZIPPED.get(pkg)
        if zipped:
            unpack_zip(pkg, zipped[0], zipped[1])
        for root, dirs, files in os.walk(d):
            dirs.sort()  # a fixed order, so the first of identical files is always the same
            for f in sorted(files):
                path = os.path.join(root, f)
                if not os.path.exists(path):
                    continue  # a link into another package (drascula-spanish -> drascula)
                rel = os.path.relpath(path, d)
                if zipped:
                    c = zipped[2](rel) if rel.startswith("_audio/") else None
                elif pkg == SKY_PKG:
                    c = None  # its speech comes through sky_speech.py (make_sky_clips)
                else:
                    c = classify(pkg, "/" + rel)
                if c:
                    yield pkg, path, rel, c


SOUNDFONTS = ["/usr/share/sounds/sf2/FluidR3_GM.sf2",
              "/usr/share/sounds/sf3/MuseScore_General.sf3",
              "/usr/share/sounds/sf2/TimGM6mb.sf2"]


def render_midi(src, key, rows):
    """Each MIDI track through two of the three soundfonts (same source id: same split)."""
    first = int(unit_hash("sf:" + key) * len(SOUNDFONTS))
    for k in range(2):
        sf2 = SOUNDFONTS[(first + k) % len(SOUNDFONTS)]
        dst = clip_path("music", "midi", key + ":" + os.path.basename(sf2))
        if not os.path.exists(dst):
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            tmp = dst + ".fs.wav"
            r = subprocess.run(["timeout", "600", "fluidsynth", "-ni", "-q", "-g", "0.6",
                                "-r", "44100", "-F", tmp, sf2, src],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            ok = r.returncode == 0 and os.path.exists(tmp) and sox_convert(tmp, dst)
            if os.path.exists(tmp):
                os.remove(tmp)
            if not ok:
                log("skip midi %s with %s" % (src, sf2))
                continue
        rows.append((dst, "music", "midi", "midi:" + key, "midi:" + os.path.basename(sf2), src))


def make_package_clips(only, rows):
    n = 0
    seen = {}
    for pkg, path, rel, (cls, group, source) in package_files(only):
        digest = hashlib.sha1(open(path, "rb").read()).hexdigest()
        if digest in seen:  # the same sound shipped twice would be two sources: keep one
            continue
        seen[digest] = path
        if group == "midi":
            render_midi(path, "%s:%s" % (pkg, rel), rows)
            continue
        dst = clip_path(cls, pkg, "%s:%s" % (pkg, rel))
        raw = DRASCULA_RAW if pkg in DRASCULA_VOICES else ()
        if not os.path.exists(dst) and not sox_convert(path, dst, raw):
            continue
        rows.append((dst, cls, group, source, pkg, "%s:%s" % (pkg, rel)))
        n += 1
        if n % 1000 == 0:
            log("clips: %d package files" % n)


# ------------------------------------------------------------- Beneath a Steel Sky voices
SKY_PKG = "beneath-a-steel-sky"


def make_sky_clips(rows):
    """The CD version's recorded dialogue (11025 Hz, 8-bit in the game files), extracted by
    sky_speech.py into $CACHE/sky-speech/<group>/<fileno>.wav with an index.tsv. Run here when
    the folder is missing and the package is unpacked. Source id = sky:<group>."""
    out = os.path.join(CACHE, "sky-speech")
    index = os.path.join(out, "index.tsv")
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "sky_speech.py")
    pkgdir = os.path.join(PKGS, SKY_PKG)
    if not os.path.exists(index):
        if not (os.path.exists(script) and os.path.exists(os.path.join(pkgdir, ".done"))):
            log("sky: no %s and no way to make it: Beneath a Steel Sky speech left out" % index)
            return
        log("sky: running %s" % script)
        r = subprocess.run([sys.executable, script, pkgdir, out], stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE)
        if r.returncode != 0 or not os.path.exists(index):
            log("sky: sky_speech.py failed (%s): left out" %
                r.stderr.decode(errors="replace").strip()[-300:])
            return
    n = 0
    for ln in open(index, encoding="utf-8"):
        f = ln.rstrip("\n").split("\t")
        if len(f) < 3 or not f[1].strip().isdigit():
            continue  # a header line
        path, fileno, group = f[0], f[1].strip(), f[2].strip()
        src = os.path.join(out, path)
        if not os.path.exists(src):
            continue
        # keyed by content: a re-extraction that changes a file makes a new clip
        digest = hashlib.sha1(open(src, "rb").read()).hexdigest()
        dst = clip_path("speech", SKY_PKG, "sky:%s:%s" % (fileno, digest))
        if not os.path.exists(dst) and not sox_convert(src, dst):
            continue
        rows.append((dst, "speech", "real", "sky:" + group, SKY_PKG,
                     "%s:%s" % (SKY_PKG, fileno)))
        n += 1
    log("sky: %d speech files from %s" % (n, index))


# ---------------------------------------------------------------------------------- TTS
def dialog_texts():
    """Sentences per language from fillets-ng-data's dialog scripts (text only, any licence-free
    use as TTS input). Dutch is left out: fillets-ng-data-nl is reserved for evaluation."""
    texts = {}
    for f in sorted(glob.glob(os.path.join(PKGS, "fillets-ng-data", "**", "dialogs_*.lua"),
                              recursive=True)):
        lang = re.search(r"dialogs_([a-zA-Z_]+)\.lua$", f).group(1).split("_")[0]
        if lang == "nl":
            continue
        src = open(f, encoding="utf-8", errors="replace").read()
        if lang == "en":
            found = re.findall(r'dialogId\("[^"]*",\s*"[^"]*",\s*"((?:[^"\\]|\\.)*)"\)', src)
        else:
            found = re.findall(r'dialogStr\("((?:[^"\\]|\\.)*)"\)', src)
        texts.setdefault(lang, []).extend(t.replace('\\"', '"') for t in found if len(t) > 3)
    for lang in texts:
        texts[lang] = sorted(set(texts[lang]))
    return texts


def utterance(rng, texts, lang):
    pool = texts.get(lang) or texts.get("en") or ["This is a test of the speech synthesizer."]
    return " ".join(rng.choice(pool) for _ in range(rng.randint(1, 3)))


def espeak_voices():
    out = subprocess.run(["espeak-ng", "--voices"], stdout=subprocess.PIPE, check=True).stdout
    langs = [ln.split()[1] for ln in out.decode().splitlines()[1:] if len(ln.split()) > 1]
    out = subprocess.run(["espeak-ng", "--voices=variant"], stdout=subprocess.PIPE,
                         check=True).stdout
    variants = [ln.split()[4].split("/")[-1] for ln in out.decode().splitlines()[1:]
                if len(ln.split()) > 4]
    return sorted(set(langs)), sorted(set(variants))


FESTIVAL_VOICES = [  # (voice, text language, text encoding)
    ("kal_diphone", "en", "latin-1"), ("ked_diphone", "en", "latin-1"),
    ("cmu_us_slt_arctic_hts", "en", "latin-1"), ("lp_diphone", "it", "latin-1"),
    ("pc_diphone", "it", "latin-1"), ("czech_dita", "cs", "iso-8859-2"),
    ("czech_krb", "cs", "iso-8859-2"), ("czech_machac", "cs", "iso-8859-2"),
    ("czech_ph", "cs", "iso-8859-2"), ("upc_ca_ona_hts", "es", "latin-1"),
    ("hy_fi_mv_diphone", "en", "latin-1"), ("suo_fi_lj_diphone", "en", "latin-1"),
    ("msu_ru_nsh_clunits", "ru", "utf-8"),  # corpus-v2: unit selection from a real Russian voice
]
FLITE_VOICES = ["kal", "kal16", "awb", "rms", "slt"]


def tts_clip(rows, engine, voice, idx, cmd_for, tmp_ext=".wav"):
    key = "tts:%s:%s:%d" % (engine, voice, idx)
    dst = clip_path("speech", "tts-" + engine, key)
    if not os.path.exists(dst):
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        tmp = dst + ".raw" + tmp_ext
        cmd = cmd_for(tmp)
        r = subprocess.run(["timeout", "120"] + cmd, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE)
        ok = r.returncode == 0 and os.path.exists(tmp) and os.path.getsize(tmp) > 2000 \
            and sox_convert(tmp, dst)
        for f in (tmp, tmp + ".txt"):
            if os.path.exists(f):
                os.remove(f)
        if not ok:
            log("skip tts %s %s: %s" % (engine, voice, r.stderr.decode(errors="replace")[:150]))
            return False
    rows.append((dst, "speech", "tts", "%s:%s" % (engine, voice), engine, key))
    return True


def make_tts(rows, per_espeak=8, per_flite=40, per_festival=30):
    texts = dialog_texts()
    log("tts: texts for %s" % ", ".join("%s=%d" % (k, len(v)) for k, v in sorted(texts.items())))
    langs, variants = espeak_voices()
    for lang in langs:
        rng = random.Random("espeak:" + lang)
        for i in range(per_espeak):
            text = utterance(rng, texts, lang.split("-")[0])
            voice = "%s+%s" % (lang, rng.choice(variants))
            speed, pitch = rng.randint(120, 210), rng.randint(20, 80)
            tts_clip(rows, "espeak", lang, i, lambda tmp: [
                "espeak-ng", "-v", voice, "-s", str(speed), "-p", str(pitch), "-w", tmp, text])
    log("tts: espeak done")
    for voice in FLITE_VOICES:
        rng = random.Random("flite:" + voice)
        for i in range(per_flite):
            text = utterance(rng, texts, "en")
            tts_clip(rows, "flite", voice, i, lambda tmp: ["flite", "-voice", voice, "-t", text,
                                                           "-o", tmp])
    log("tts: flite done")
    for voice, lang, enc in FESTIVAL_VOICES:
        rng = random.Random("festival:" + voice)
        for i in range(per_festival):
            text = utterance(rng, texts, lang)

            def cmd(tmp, voice=voice, text=text, enc=enc):
                with open(tmp + ".txt", "wb") as f:
                    f.write(text.encode(enc, errors="ignore"))
                return ["text2wave", "-eval", "(voice_%s)" % voice, "-o", tmp, tmp + ".txt"]
            if not tts_clip(rows, "festival", voice, i, cmd) and i == 0:
                break  # a voice that cannot speak its first line is not tried further
    log("tts: festival done")


# ------------------------------------------------------------------------ sox-made noise
def make_synth_noise(rows, count=90, seconds=20):
    for i in range(count):
        rng = random.Random("synth:%d" % i)
        kind = ["whitenoise", "pinknoise", "brownnoise", "hum", "hum+noise"][i % 5]
        dst = clip_path("noise", "synth", "synth:%d" % i)
        if not os.path.exists(dst):
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            if kind.startswith("hum"):
                t = np.arange(seconds * SR) / SR
                f0 = rng.choice([50.0, 60.0]) * (1 + rng.uniform(-0.01, 0.01))
                x = np.zeros_like(t)
                for h in range(1, 12):
                    x += rng.uniform(0, 1) / h ** rng.uniform(0.3, 1.5) * \
                        np.sin(2 * np.pi * f0 * h * t + rng.uniform(0, 6.28))
                if kind == "hum+noise":
                    x += np.random.default_rng(i).standard_normal(len(t)) * rng.uniform(0.02, 0.3)
                write_wav(dst, 0.5 * x / np.max(np.abs(x)))
            else:
                shape = rng.choice([[], ["lowpass", str(rng.randint(300, 4000))],
                                    ["highpass", str(rng.randint(200, 3000))],
                                    ["sinc", "%d-%d" % (rng.randint(100, 1000),
                                                        rng.randint(2000, 7000))]])
                subprocess.run(["sox", "-V1", "-R", "-n", "-r", str(SR), "-c", "1", "-b", "16",
                                dst, "synth", str(seconds), kind, "vol", "0.5"] + shape,
                               check=True)
        rows.append((dst, "noise", "synth", "synth:%d" % i, "sox", kind))


# ------------------------------------------------------------------------------- index
def clip_stats(path, cls):
    x = read_wav(path)
    db = frame_db(x)
    if len(db) == 0:
        return None
    mx = float(db.max())
    act = activity(x, cls, mx)
    return len(x) / SR, mx, act.sum() / 100.0


def write_index(rows):
    """clips.tsv: one row per clip; stats are cached in clips-stats.tsv by path and size."""
    stats_file = os.path.join(CACHE, "clips-stats.tsv")
    stats = {}
    if os.path.exists(stats_file):
        for ln in open(stats_file, encoding="utf-8"):
            p, size, dur, mx, act = ln.rstrip("\n").split("\t")
            stats[(p, int(size))] = (float(dur), float(mx), float(act))
    out = []
    with open(stats_file, "a", encoding="utf-8") as sfile:
        for dst, cls, group, source, pkg, origin in rows:
            rel = os.path.relpath(dst, CACHE)
            size = os.path.getsize(dst)
            st = stats.get((rel, size))
            if st is None:
                st = clip_stats(dst, cls)
                if st is None:
                    continue
                stats[(rel, size)] = st
                sfile.write("%s\t%d\t%.3f\t%.2f\t%.2f\n" % ((rel, size) + st))
            dur, mx, act = st
            if act < 0.1 or mx < -70:
                continue  # silent or nearly empty files carry no class
            out.append([rel, cls, group, source, "", pkg, "%.3f" % dur,
                        "%.2f" % mx, "%.2f" % act, origin.replace("\t", " ")])
    families = {}
    for r in out:
        fam = families.setdefault(source_family(r[1], r[2], r[5]), {})
        fam[r[3]] = fam.get(r[3], 0.0) + float(r[6]) / 60
    split = {}
    for fam in families.values():
        split.update(assign_splits(fam))
    for r in out:
        r[4] = split[r[3]]
    out.sort()
    index = clips_index()
    os.makedirs(os.path.dirname(index), exist_ok=True)
    tmp = index + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write("clip\tclass\tgroup\tsource\tsplit\tpackage\tseconds\tmax_db\tactive_s\torigin\n")
        for r in out:
            f.write("\t".join(r) + "\n")
    os.replace(tmp, index)
    log("%s: %d clips" % (index, len(out)))


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--only", nargs="*", default=None,
                    help="limit to these packages (and/or tts, sky, synth); testing aid")
    ap.add_argument("--tts-per-espeak-voice", type=int, default=8)
    args = ap.parse_args()
    only = set(args.only) if args.only is not None else None
    rows = []
    pkgs_only = {p for p in only if p not in ("tts", "synth", "sky")} \
        if only is not None else None
    if only is None or pkgs_only:
        make_package_clips(pkgs_only, rows)
    if only is None or "sky" in only:
        make_sky_clips(rows)
    if only is None or "synth" in only:
        make_synth_noise(rows)
    if only is None or "tts" in only:
        make_tts(rows, per_espeak=args.tts_per_espeak_voice)
    write_index(rows)


if __name__ == "__main__":
    main()
