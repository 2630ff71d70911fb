"""Page under construction."""

from __future__ import annotations

import streamlit as st

from cardbase.ui.common import t


def render() -> None:
    st.title(t("nav.editor"))
    st.info(t("common.soon"))
