"""Review rubrics: the fields a reviewer fills in, their allowed labels and what each label means.

The built-in rubrics restate spec 000 (identity 0–2, translation 0–4) and spec 002 (the two
passes of the conversion audit) in our own words; a study file may add its own under ``rubrics:``.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class RubricField(BaseModel):
    """One question on the sheet and its closed label set."""

    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)

    question: str
    """What the reviewer decides for this field."""
    labels: dict[str, str] = Field(min_length=2)
    """Allowed labels (in order, lowest first for ordinal fields) and what each one means."""
    ordinal: bool = False
    """True when the labels are ordered (scores): agreement is then weighted by distance."""
    only_if: str | None = None
    """Name of a boolean item flag (row ``meta``); the field is asked only where it is true."""


class Rubric(BaseModel):
    """A named set of fields shown on every sheet that uses it."""

    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)

    title: str
    """Heading of the rubric on the sheet."""
    guidance: str = ""
    """Short instructions shown above the fields."""
    fields: dict[str, RubricField] = Field(min_length=1)
    """The fields, in sheet order; the first ordinal field is the track's score."""

    def fields_for(self, flags: dict[str, bool]) -> list[str]:
        """Field names asked for an item with these flags."""
        return [
            name for name, f in self.fields.items() if f.only_if is None or flags.get(f.only_if)
        ]

    @property
    def score_field(self) -> str | None:
        """The first ordinal field, whose labels are numbers averaged into the track score."""
        return next((name for name, f in self.fields.items() if f.ordinal), None)


_YES_NO_BORDER = {"yes": "", "no": "", "borderline": "cannot decide; use sparingly"}

BUILTIN: dict[str, Rubric] = {
    "identity-0-2": Rubric(
        title="Identity (0–2)",
        guidance="Judge the answer against the model card facts shown with the item.",
        fields={
            "score": RubricField(
                question="How well does the answer state who and what the model is?",
                labels={
                    "0": "wrong identity, accepts the false premise, or invents an unsupported "
                    "value",
                    "1": "partly right, or so vague it commits to nothing",
                    "2": "grounded in the card and calibrated (says 'not published' where the "
                    "card has no value)",
                },
                ordinal=True,
            ),
            "premise": RubricField(
                question="The question carries a false premise. Did the answer correct it?",
                labels={"corrected": "says the premise is wrong", "accepted": "goes along with it"},
                only_if="false_premise",
            ),
            "fabrication": RubricField(
                question="Does the answer assert a specific fact the card does not support?",
                labels={"no": "no unsupported specific claim", "yes": "states an invented value"},
            ),
        },
    ),
    "translation-0-4": Rubric(
        title="Translation (0–4)",
        guidance="Weigh adequacy, meaning preservation, omissions or additions, and fluency "
        "against the source; the references are one acceptable rendering, not the only one.",
        fields={
            "score": RubricField(
                question="How good is the translation?",
                labels={
                    "0": "unrelated, empty, or in the wrong language",
                    "1": "mostly wrong or hard to understand",
                    "2": "partly right: one material omission, addition or mistranslation",
                    "3": "meaning kept; small wording or spelling problems",
                    "4": "meaning kept, natural, no material error",
                },
                ordinal=True,
            ),
        },
    ),
    "convert-pass1": Rubric(
        title="Pass one: does the item convert to an open question?",
        guidance="You see the original question, its options and the reference answer only.",
        fields={
            "converts": RubricField(
                question="Without its options, would a knowledgeable person give the reference "
                "answer rather than another equally correct one?",
                labels=_YES_NO_BORDER,
            ),
            "answer_stands_alone": RubricField(
                question="Is the reference usable as a grading target on its own (units kept, "
                "not a fragment, answers the question, names no option labels)?",
                labels=_YES_NO_BORDER,
            ),
        },
    ),
    "convert-pass2": Rubric(
        title="Pass two: is the rewrite faithful?",
        guidance="Only after pass one is complete. You now also see the rewritten question.",
        fields={
            "same_question": RubricField(
                question="Would a reader of the rewrite give the answer the original asked "
                "for (not narrowed from the answer, not easier or harder)?",
                labels=_YES_NO_BORDER,
            ),
            "self_contained": RubricField(
                question="Can the rewrite be answered with no options and no missing passage?",
                labels=_YES_NO_BORDER,
            ),
        },
    ),
}
