"""The claim dialog (Ctrl+Shift+C): a player, or the assistant for the blind player, claims.

What can be claimed (FIDE Laws): threefold repetition (Art. 9.2) and fifty moves (Art.
9.3), with the move he declares he will make when the position arises only after it
(Art. 9.2.1.1, 9.3.1); the opponent's fallen flag (Art. 6.8, D.2.10 e); an illegal move
in rapid or blitz without adequate supervision (A.4.2, B.3); a draw with under two
minutes left (Guidelines III.4: the opponent cannot win by normal means, or is making
no effort to); a wrong set-up of the pieces, the board's orientation or the clock
(Appendix A a); touch-move against the opponent's last move (Art. 4.3, A b); a clock
wrongly set at the resumption of an adjourned game (Guidelines I.13); and the player's
agreement to correct an illegal move in blitz (Appendix B). The dialog only collects
the choice; the table judges the claim (the table's ``Claims``, ``ClaimsQuickplay``,
``ClaimsSetup``, ``ClaimsTouch``, ``PointsOutClock`` and ``AgreesCorrection`` commands).

Every field is a labelled form row (Alt+letter on its caption, a name and a
description for a screen reader); the move field is enabled only for the draw claims.
"""

from __future__ import annotations

from PySide6.QtWidgets import (
    QButtonGroup,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QRadioButton,
    QVBoxLayout,
    QWidget,
)

from . import a11y
from .line import LineInput
from .text import t

__all__ = ["CLAIMS", "ClaimDialog", "Claim"]

#: What the dialog offers, in its order: a claim kind of the table, or "quickplay_" and the ground.
CLAIMS = ("threefold", "fifty", "time", "illegal", "quickplay_cannot_win", "quickplay_no_effort", "setup_pieces",
          "setup_orientation", "setup_clock", "touch", "clock", "correction")
#: The claims that may name the move the claimant will make.
WITH_MOVE = ("threefold", "fifty")

#: A claim as chosen: who ("blind" or "sighted"), what (one of :data:`CLAIMS`), the declared move or None.
Claim = tuple[str, str, str | None]


class ClaimDialog(QDialog):
    """Choose who claims and what; :meth:`claim` reads the choice once the dialog is accepted."""

    def __init__(self, parent: QWidget | None, *, lang: str, blind_name: str, sighted_name: str,
                 who: str = "blind") -> None:
        super().__init__(parent)
        self.lang = lang
        self.setObjectName("claim_dialog")
        self.setWindowTitle(t("claim.title", lang))
        a11y.label(self, t("claim.title", lang), t("claim.description", lang))
        layout = QVBoxLayout(self)
        form = QFormLayout()
        layout.addLayout(form)

        people = QWidget(self)
        row = QHBoxLayout(people)
        row.setContentsMargins(0, 0, 0, 0)
        self.by_blind = QRadioButton(t("claim.by_blind", lang, name=blind_name), people)
        self.by_sighted = QRadioButton(t("claim.by_sighted", lang, name=sighted_name), people)
        self._who = QButtonGroup(self)
        for button, key, name in ((self.by_blind, "claim.by_blind", blind_name),
                                  (self.by_sighted, "claim.by_sighted", sighted_name)):
            a11y.label(button, t(key, lang, name=name), t(f"{key}_description", lang))
            self._who.addButton(button)
            row.addWidget(button)
        (self.by_sighted if who == "sighted" else self.by_blind).setChecked(True)
        a11y.form_row(form, people, t("claim.who", lang), t("claim.who_description", lang))

        self.kind = QComboBox(self)
        self.kind.setObjectName("claim_kind")
        for kind in CLAIMS:
            self.kind.addItem(t(f"claim.kind_{kind}", lang), kind)
        a11y.form_row(form, self.kind, t("claim.kind", lang), t("claim.kind_description", lang))

        self.declared = LineInput("", self)
        self.declared.setObjectName("claim_move")
        a11y.form_row(form, self.declared, t("claim.move", lang), t("claim.move_description", lang))

        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel,
                                        self)
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        ok.setText(t("claim.ok", lang))
        a11y.label(ok, t("claim.ok", lang), t("claim.ok_description", lang))
        cancel = self.buttons.button(QDialogButtonBox.StandardButton.Cancel)
        cancel.setText(t("cancel", lang))
        a11y.label(cancel, t("cancel", lang), t("claim.cancel_description", lang))
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)
        self.kind.currentIndexChanged.connect(self._update)
        self._update()
        self.kind.setFocus()

    def _update(self) -> None:
        self.declared.setEnabled(self.kind.currentData() in WITH_MOVE)

    def choose(self, who: str, kind: str, move: str | None = None) -> None:
        """Set the fields as a person would (who: "blind" or "sighted"; kind: one of :data:`CLAIMS`)."""
        (self.by_sighted if who == "sighted" else self.by_blind).setChecked(True)
        self.kind.setCurrentIndex(CLAIMS.index(kind))
        self.declared.setText(move or "")

    def claim(self) -> Claim:
        """(who, what, declared move or None) as chosen."""
        kind = str(self.kind.currentData())
        move = self.declared.text().strip() if kind in WITH_MOVE else ""
        return ("sighted" if self.by_sighted.isChecked() else "blind"), kind, (move or None)
