"""The Porter stemmer as NLTK 3.10.4's ``PorterStemmer()`` runs it (its default ``NLTK_EXTENSIONS`` mode).

rouge-score stems with ``nltk.stem.porter.PorterStemmer()``; this module gives the same stem for every word,
without importing NLTK. It is the readable reference that the compiled stemmer is tested against (and the
fallback when the compiled core is not built). The rules are Porter's (1980) with the departures NLTK's
default mode makes, listed where they apply:

* a fixed table of irregular forms (``skies`` -> ``sky``, ``dying`` -> ``die``, ``news``, ``proceed`` ...);
* words of at most two characters are returned as they are;
* step 1a: ``-ies`` of a four-letter word -> ``-ie`` (``ties`` -> ``tie``);
* step 1b: ``-ied`` -> ``-ie`` in a four-letter word, else ``-i``, with nothing else of step 1b after it;
* condition ``*o`` also holds for a two-letter vowel-consonant stem;
* step 1c: ``y`` -> ``i`` only after a consonant that is not the whole stem (``happy`` -> ``happi``,
  ``enjoy`` and ``by`` kept);
* step 2: ``-alli`` -> ``-al`` is applied and step 2 runs again on the result; ``-bli`` -> ``-ble`` (Porter's
  own later rule instead of ``-abli``); ``-fulli`` -> ``-ful``; ``-logi`` -> ``-log`` when the word less its
  last three letters has a positive measure.

In a rule list the first rule whose suffix the word ends with decides: when its condition fails, the word
is kept and no later rule of that list is tried.
"""

from __future__ import annotations

from functools import lru_cache

_VOWELS = frozenset("aeiou")

#: NLTK's irregular forms: word -> stem, looked up before any rule
IRREGULAR = {
    "sky": "sky", "skies": "sky", "dying": "die", "lying": "lie", "tying": "tie", "news": "news",
    "innings": "inning", "inning": "inning", "outings": "outing", "outing": "outing",
    "cannings": "canning", "canning": "canning", "howe": "howe", "proceed": "proceed",
    "exceed": "exceed", "succeed": "succeed",
}


def consonant_flags(word: str) -> list[bool]:
    """``True`` where ``word`` has a consonant: a letter other than a, e, i, o, u, and other than a ``y``
    that follows a consonant (a ``y`` at the start is a consonant)."""
    flags: list[bool] = []
    for i, ch in enumerate(word):
        if ch in _VOWELS:
            flags.append(False)
        elif ch == "y":
            flags.append(i == 0 or not flags[i - 1])
        else:
            flags.append(True)
    return flags


def measure(stem: str) -> int:
    """Porter's m: the number of vowel-consonant transitions of ``stem`` ([C](VC)^m[V])."""
    flags = consonant_flags(stem)
    return sum(1 for a, b in zip(flags, flags[1:]) if not a and b)


def _has_vowel(stem: str) -> bool:
    return not all(consonant_flags(stem))


def _double_consonant(word: str) -> bool:
    return len(word) >= 2 and word[-1] == word[-2] and consonant_flags(word)[-1]


def _cvc(word: str) -> bool:
    """Condition ``*o``: consonant-vowel-consonant at the end, the last not w, x or y; or (NLTK) a two-letter
    vowel-consonant word."""
    if len(word) >= 3:
        f = consonant_flags(word)
        if f[-3] and not f[-2] and f[-1] and word[-1] not in "wxy":
            return True
    if len(word) == 2:
        f = consonant_flags(word)
        return not f[0] and f[1]
    return False


def _m_positive(stem: str) -> bool:
    return measure(stem) > 0


def _m_above_one(stem: str) -> bool:
    return measure(stem) > 1


def _apply(word: str, rules) -> str:
    """The first rule whose suffix ``word`` ends with decides (its condition sees the word less the suffix)."""
    for suffix, replacement, condition in rules:
        if word.endswith(suffix):
            stem = word[: len(word) - len(suffix)]
            return stem + replacement if condition(stem) else word
    return word


def _step1a(word: str) -> str:
    if word.endswith("ies") and len(word) == 4:
        return word[:-1]  # ties -> tie
    if word.endswith("sses"):
        return word[:-2]
    if word.endswith("ies"):
        return word[:-2]
    if word.endswith("ss"):
        return word
    if word.endswith("s"):
        return word[:-1]
    return word


def _step1b(word: str) -> str:
    if word.endswith("ied"):
        return word[:-3] + ("ie" if len(word) == 4 else "i")
    if word.endswith("eed"):
        stem = word[:-3]
        return stem + "ee" if measure(stem) > 0 else word
    if word.endswith("ed") and _has_vowel(word[:-2]):
        stem = word[:-2]
    elif word.endswith("ing") and _has_vowel(word[:-3]):
        stem = word[:-3]
    else:
        return word
    for suffix, longer in (("at", "ate"), ("bl", "ble"), ("iz", "ize")):
        if stem.endswith(suffix):
            return stem[: len(stem) - len(suffix)] + longer
    if _double_consonant(stem):
        return stem[:-1] if stem[-1] not in "lsz" else stem
    if measure(stem) == 1 and _cvc(stem):
        return stem + "e"
    return stem


def _step1c(word: str) -> str:
    if word.endswith("y"):
        stem = word[:-1]
        if len(stem) > 1 and consonant_flags(stem)[-1]:
            return stem + "i"
    return word


_STEP2 = (
    ("ational", "ate"), ("tional", "tion"), ("enci", "ence"), ("anci", "ance"), ("izer", "ize"),
    ("bli", "ble"), ("alli", "al"), ("entli", "ent"), ("eli", "e"), ("ousli", "ous"), ("ization", "ize"),
    ("ation", "ate"), ("ator", "ate"), ("alism", "al"), ("iveness", "ive"), ("fulness", "ful"),
    ("ousness", "ous"), ("aliti", "al"), ("iviti", "ive"), ("biliti", "ble"), ("fulli", "ful"),
)


def _step2(word: str) -> str:
    if word.endswith("alli") and _m_positive(word[:-4]):
        return _step2(word[:-4] + "al")
    for suffix, replacement in _STEP2:
        if word.endswith(suffix):
            stem = word[: len(word) - len(suffix)]
            return stem + replacement if _m_positive(stem) else word
    if word.endswith("logi"):
        # NLTK measures the word less "ogi" (the "l" stays) for this rule
        return word[:-1] if _m_positive(word[:-3]) else word
    return word


_STEP3 = tuple(
    (s, r, _m_positive)
    for s, r in (("icate", "ic"), ("ative", ""), ("alize", "al"), ("iciti", "ic"), ("ical", "ic"), ("ful", ""),
                 ("ness", ""))
)


def _ion_condition(stem: str) -> bool:
    return measure(stem) > 1 and stem[-1] in "st"


_STEP4 = tuple(
    (s, "", _ion_condition if s == "ion" else _m_above_one)
    for s in ("al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent", "ion", "ou",
              "ism", "ate", "iti", "ous", "ive", "ize")
)


def _step5a(word: str) -> str:
    if word.endswith("e"):
        stem = word[:-1]
        m = measure(stem)
        if m > 1 or (m == 1 and not _cvc(stem)):
            return stem
    return word


def _step5b(word: str) -> str:
    if word.endswith("ll") and measure(word[:-1]) > 1:
        return word[:-1]
    return word


def stem(word: str) -> str:
    """NLTK's ``PorterStemmer().stem(word)`` (the word is lowercased first, as NLTK does)."""
    original_length = len(word)  # NLTK tests the length before lowercasing ("İ".lower() is two characters)
    word = word.lower()
    irregular = IRREGULAR.get(word)
    if irregular is not None:
        return irregular
    if original_length <= 2:
        return word
    word = _step1a(word)
    word = _step1b(word)
    word = _step1c(word)
    word = _step2(word)
    word = _apply(word, _STEP3)
    word = _apply(word, _STEP4)
    word = _step5a(word)
    return _step5b(word)


@lru_cache(maxsize=1 << 16)
def cached_stem(word: str) -> str:
    """:func:`stem` with a cache (words repeat a lot in running text)."""
    return stem(word)
