"""Message components and modal components, checked as the platform checks them (the published
``*ComponentForMessageRequest`` / ``*ComponentForModalRequest`` shapes and the Component Reference's
rules). Every bad component is recorded at its path (``components.0.components.1.custom_id``) and one
50035 is raised by the caller's ``Form.done()``.

Used by guild messages (create and edit), interaction responses and followups, and the MODAL
callback. Radio Group, Checkbox Group and Checkbox exist only in modals and only as the child of a
Label; File Upload only in modals, inside a Label."""

from __future__ import annotations

from typing import Any

from .validation import Form

# Component types (the published MessageComponentTypes).
ACTION_ROW, BUTTON, STRING_SELECT, TEXT_INPUT, USER_SELECT, ROLE_SELECT, MENTIONABLE_SELECT, CHANNEL_SELECT = range(1, 9)
SECTION, TEXT_DISPLAY, THUMBNAIL, MEDIA_GALLERY, FILE, SEPARATOR = 9, 10, 11, 12, 13, 14
CONTAINER, LABEL, FILE_UPLOAD, RADIO_GROUP, CHECKBOX_GROUP, CHECKBOX = 17, 18, 19, 21, 22, 23
SELECTS = frozenset({STRING_SELECT, USER_SELECT, ROLE_SELECT, MENTIONABLE_SELECT, CHANNEL_SELECT})
# What a Label may hold in a modal.
LABEL_CHILDREN = SELECTS | {TEXT_INPUT, FILE_UPLOAD, RADIO_GROUP, CHECKBOX_GROUP, CHECKBOX}
MODAL_ONLY = frozenset({TEXT_INPUT, LABEL, FILE_UPLOAD, RADIO_GROUP, CHECKBOX_GROUP, CHECKBOX})
BUTTON_STYLES = (1, 2, 3, 4, 5, 6)   # primary, secondary, success, danger, link, premium
LINK, PREMIUM = 5, 6
MAX_TOP_LEVEL = 40   # components of a message or a modal, nested ones included (the platform counts all)
FILE_UPLOAD_MAX = 10
COMPONENTS_V2 = 1 << 15


def _fail(form: Form, name: str, message: str, code: str = "COMPONENT_INVALID") -> None:
    form.fail(name, code, message)


class _Checker:
    """One walk over a message's or a modal's components; counts them and keeps custom_ids unique."""

    def __init__(self, modal: bool) -> None:
        self.modal = modal
        self.custom_ids: set[str] = set()
        self.count = 0

    def _custom_id(self, form: Form, required: bool = True) -> str | None:
        value = form.string("custom_id", required=required, min_len=1, max_len=100)
        if value is not None:
            if value in self.custom_ids:
                _fail(form, "custom_id", "Component custom id cannot be duplicated.", "COMPONENT_CUSTOM_ID_DUPLICATED")
            self.custom_ids.add(value)
        return value

    def _values_range(self, form: Form, low_max: int, high_max: int, *, minimum_min: int = 0) -> None:
        low = form.integer("min_values", required=False, minimum=minimum_min, maximum=low_max)
        high = form.integer("max_values", required=False, minimum=1, maximum=high_max)
        if low is not None and high is not None and low > high:
            _fail(form, "min_values", "min_values must be less than or equal to max_values.")

    def component(self, form: Form, *, where: str) -> None:
        """``where``: "top" (a message's or modal's list), "row", "section", "container", "label"."""
        self.count += 1
        form.integer("id", required=False, minimum=0)
        kind = form.integer("type", minimum=1)
        if kind is None:
            return
        if kind in MODAL_ONLY and not self.modal:
            _fail(form, "type", f"Component type {kind} is only allowed in modals.")
            return
        if kind in (RADIO_GROUP, CHECKBOX_GROUP, CHECKBOX, FILE_UPLOAD) and where != "label":
            _fail(form, "type", f"Component type {kind} must be placed inside a Label.")
            return
        if where == "label" and kind not in LABEL_CHILDREN:
            _fail(form, "type", f"A Label cannot hold a component of type {kind}.")
            return
        if where == "row" and kind not in SELECTS | {BUTTON, TEXT_INPUT}:
            _fail(form, "type", f"An Action Row cannot hold a component of type {kind}.")
            return
        if where == "top" and kind in SELECTS | {BUTTON, TEXT_INPUT}:
            _fail(form, "type", f"Component type {kind} must be inside an Action Row"
                  + (" or a Label." if self.modal else "."))
            return
        if self.modal and kind not in (ACTION_ROW, LABEL, TEXT_DISPLAY, *LABEL_CHILDREN):
            _fail(form, "type", f"Component type {kind} is not allowed in modals.")
            return
        check = _CHECKS.get(kind)
        if check is None:
            _fail(form, "type", f"Unknown component type {kind}.")
            return
        check(self, form)

    def children(self, form: Form, name: str, *, where: str, min_items: int, max_items: int) -> list[Form]:
        items = form.array(name, min_items=min_items, max_items=max_items) or []
        result = []
        for index, raw in enumerate(items):
            child = form.item(name, index, raw)
            self.component(child, where=where)
            result.append(child)
        return result

    # -- each type ------------------------------------------------------------------------------------
    def action_row(self, form: Form) -> None:
        children = self.children(form, "components", where="row", min_items=1, max_items=5)
        kinds = [child.data.get("type") for child in children]
        if any(k in SELECTS for k in kinds) and len(kinds) > 1:
            _fail(form, "components", "An Action Row with a select menu holds only that select.")
        if self.modal and any(k != TEXT_INPUT for k in kinds):
            _fail(form, "components", "An Action Row in a modal holds only Text Inputs.")

    def button(self, form: Form) -> None:
        style = form.choice("style", BUTTON_STYLES)
        form.string("label", required=False, max_len=80, nullable=True)
        form.boolean("disabled")
        url = form.string("url", required=False, max_len=512, nullable=True)
        sku = form.data.get("sku_id")
        if style == LINK:
            if url is None:
                _fail(form, "url", "A link button needs a url.", "BASE_TYPE_REQUIRED")
            if form.data.get("custom_id") is not None:
                _fail(form, "custom_id", "A link button cannot have a custom_id.")
        elif style == PREMIUM:
            if sku is None:
                _fail(form, "sku_id", "A premium button needs a sku_id.", "BASE_TYPE_REQUIRED")
        elif style is not None:
            self._custom_id(form)
            if url is not None:
                _fail(form, "url", "Only link buttons have a url.")
        if style not in (LINK, PREMIUM) and style is not None and not form.data.get("label") \
                and not form.data.get("emoji"):
            _fail(form, "label", "A button needs a label or an emoji.", "BASE_TYPE_REQUIRED")

    def string_select(self, form: Form) -> None:
        self._custom_id(form)
        form.string("placeholder", required=False, max_len=150, nullable=True)
        self._values_range(form, 25, 25)
        options = form.array("options", min_items=1, max_items=25) or []
        values = set()
        for index, raw in enumerate(options):
            option = form.item("options", index, raw)
            option.string("label", min_len=1, max_len=100)
            value = option.string("value", min_len=1, max_len=100)
            option.string("description", required=False, max_len=100, nullable=True)
            option.boolean("default")
            if value in values:
                _fail(option, "value", "Option values must be unique.", "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED")
            values.add(value)
        high = form.data.get("max_values")
        if isinstance(high, int) and not isinstance(high, bool) and options and high > len(options):
            _fail(form, "max_values", "max_values cannot exceed the number of options.")

    def auto_select(self, form: Form) -> None:
        self._custom_id(form)
        form.string("placeholder", required=False, max_len=150, nullable=True)
        self._values_range(form, 25, 25)
        defaults = form.array("default_values", required=False, max_items=25) or []
        for index, raw in enumerate(defaults):
            item = form.item("default_values", index, raw)
            item.snowflake("id")
            item.choice("type", ("user", "role", "channel"))

    def text_input(self, form: Form) -> None:
        self._custom_id(form)
        form.choice("style", (1, 2))
        form.string("label", required=False, min_len=1, max_len=45, nullable=True)
        low = form.integer("min_length", required=False, minimum=0, maximum=4000)
        high = form.integer("max_length", required=False, minimum=1, maximum=4000)
        if low is not None and high is not None and low > high:
            _fail(form, "min_length", "min_length must be less than or equal to max_length.")
        form.string("value", required=False, max_len=4000, nullable=True)
        form.string("placeholder", required=False, max_len=100, nullable=True)
        form.boolean("required", default=True)

    def text_display(self, form: Form) -> None:
        form.string("content", min_len=1, max_len=4000)

    def section(self, form: Form) -> None:
        self.children(form, "components", where="section", min_items=1, max_items=3)
        for index, raw in enumerate(form.data.get("components") or []):
            if isinstance(raw, dict) and raw.get("type") != TEXT_DISPLAY:
                form.errors.add((*form.path, "components", index, "type"), "COMPONENT_INVALID",
                                "A Section holds only Text Displays.")
        accessory = form.obj("accessory")
        if accessory is not None:
            kind = accessory.data.get("type")
            if kind not in (BUTTON, THUMBNAIL):
                accessory.fail("type", "COMPONENT_INVALID", "A Section's accessory is a Button or a Thumbnail.")
            else:
                self.count += 1
                _CHECKS[kind](self, accessory)

    def media(self, form: Form, name: str) -> None:
        media = form.obj(name)
        if media is not None:
            media.string("url", min_len=1, max_len=2048)

    def thumbnail(self, form: Form) -> None:
        self.media(form, "media")
        form.string("description", required=False, max_len=1024, nullable=True)

    def media_gallery(self, form: Form) -> None:
        for index, raw in enumerate(form.array("items", min_items=1, max_items=10) or []):
            self.media(form.item("items", index, raw), "media")

    def file(self, form: Form) -> None:
        media = form.obj("file")
        if media is not None:
            url = media.string("url", min_len=1, max_len=2048)
            if url is not None and not url.startswith("attachment://"):
                media.fail("url", "COMPONENT_INVALID", "A File component refers to an attachment (attachment://name).")

    def separator(self, form: Form) -> None:
        form.boolean("divider", default=True)
        form.choice("spacing", (1, 2), required=False)

    def container(self, form: Form) -> None:
        form.integer("accent_color", required=False, minimum=0, maximum=0xFFFFFF)
        form.boolean("spoiler")
        self.children(form, "components", where="container", min_items=1, max_items=MAX_TOP_LEVEL)
        for index, raw in enumerate(form.data.get("components") or []):
            if isinstance(raw, dict) and raw.get("type") in (CONTAINER, THUMBNAIL):
                form.errors.add((*form.path, "components", index, "type"), "COMPONENT_INVALID",
                                "A Container cannot hold this component type.")

    def label(self, form: Form) -> None:
        form.string("label", min_len=1, max_len=45)
        form.string("description", required=False, max_len=100, nullable=True)
        if "components" in form.data:
            _fail(form, "components", "A Label holds exactly one component, in `component`.")
        child = form.obj("component")
        if child is not None:
            self.component(child, where="label")

    def file_upload(self, form: Form) -> None:
        self._custom_id(form)
        self._values_range(form, FILE_UPLOAD_MAX, FILE_UPLOAD_MAX)
        form.boolean("required", default=True)

    def radio_group(self, form: Form) -> None:
        self._custom_id(form)
        form.boolean("required", default=True)
        options = form.array("options", min_items=2, max_items=10) or []
        self._options(form, options, max_defaults=1)

    def checkbox_group(self, form: Form) -> None:
        self._custom_id(form)
        form.boolean("required", default=True)
        options = form.array("options", min_items=1, max_items=10) or []
        self._values_range(form, 10, 10)
        self._options(form, options, max_defaults=None)
        high = form.data.get("max_values")
        if isinstance(high, int) and not isinstance(high, bool) and options and high > len(options):
            _fail(form, "max_values", "max_values cannot exceed the number of options.")

    def checkbox(self, form: Form) -> None:
        self._custom_id(form)
        form.boolean("default")

    def _options(self, form: Form, options: list[Any], *, max_defaults: int | None) -> None:
        values, defaults = set(), 0
        for index, raw in enumerate(options):
            option = form.item("options", index, raw)
            option.string("label", min_len=1, max_len=100)
            value = option.string("value", min_len=1, max_len=100)
            option.string("description", required=False, max_len=100, nullable=True)
            defaults += option.boolean("default")
            if value in values:
                _fail(option, "value", "Option values must be unique.", "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED")
            values.add(value)
        if max_defaults is not None and defaults > max_defaults:
            _fail(form, "options", "Only one option can be the default.")


_CHECKS = {
    ACTION_ROW: _Checker.action_row, BUTTON: _Checker.button, STRING_SELECT: _Checker.string_select,
    USER_SELECT: _Checker.auto_select, ROLE_SELECT: _Checker.auto_select, MENTIONABLE_SELECT: _Checker.auto_select,
    CHANNEL_SELECT: _Checker.auto_select, TEXT_INPUT: _Checker.text_input, SECTION: _Checker.section,
    TEXT_DISPLAY: _Checker.text_display, THUMBNAIL: _Checker.thumbnail, MEDIA_GALLERY: _Checker.media_gallery,
    FILE: _Checker.file, SEPARATOR: _Checker.separator, CONTAINER: _Checker.container, LABEL: _Checker.label,
    FILE_UPLOAD: _Checker.file_upload, RADIO_GROUP: _Checker.radio_group, CHECKBOX_GROUP: _Checker.checkbox_group,
    CHECKBOX: _Checker.checkbox,
}


def check_message_components(form: Form, name: str = "components", *, flags: int = 0) -> list[dict[str, Any]]:
    """The ``components`` of a message body (create, edit, interaction response). Without the
    IS_COMPONENTS_V2 flag only Action Rows may be at the top (at most 5); with it, any layout
    component. Errors go to ``form``; the list is returned as given."""
    raw = form.array(name, required=False, max_items=MAX_TOP_LEVEL)
    if not raw:
        return []
    checker = _Checker(modal=False)
    for index, item in enumerate(raw):
        child = form.item(name, index, item)
        checker.component(child, where="top")
        if not flags & COMPONENTS_V2 and child.data.get("type") != ACTION_ROW:
            child.fail("type", "COMPONENT_INVALID",
                       "Without the IS_COMPONENTS_V2 flag a message's components are Action Rows.")
    if not flags & COMPONENTS_V2 and len(raw) > 5:
        form.fail(name, "BASE_TYPE_BAD_LENGTH", "Must be 5 or fewer in length.")
    if checker.count > MAX_TOP_LEVEL:
        form.fail(name, "COMPONENT_MAX_TOTAL_COMPONENTS_EXCEEDED", f"At most {MAX_TOP_LEVEL} components in total.")
    return as_stored(raw) if not form.errors else list(raw)


def as_stored(components: list[Any]) -> list[dict[str, Any]]:
    """Valid components as a message carries them: every one numbered (``id``, in order, where the
    sender gave none) and the defaults the platform fills in shown."""
    counter = [0]

    def fill(item: dict[str, Any]) -> dict[str, Any]:
        counter[0] += 1
        item = {key: value for key, value in item.items() if value is not None}
        item.setdefault("id", counter[0])
        kind = item.get("type")
        if kind in SELECTS:
            item.setdefault("min_values", 1)
            item.setdefault("max_values", 1)
        elif kind == CONTAINER:
            item.setdefault("accent_color", None)
            item.setdefault("spoiler", False)
        elif kind == SEPARATOR:
            item.setdefault("spacing", 1)
            item.setdefault("divider", True)
        if isinstance(item.get("components"), list):
            item["components"] = [fill(child) for child in item["components"]]
        if isinstance(item.get("accessory"), dict):
            item["accessory"] = fill(item["accessory"])
        return item

    return [fill(dict(item)) for item in components]


def check_modal(form: Form) -> dict[str, Any]:
    """The ``data`` of a MODAL callback: ``custom_id``, ``title``, ``components`` (1–40 of Label,
    Text Display, or an Action Row of Text Inputs)."""
    form.string("custom_id", min_len=1, max_len=100)
    form.string("title", min_len=1, max_len=45)
    checker = _Checker(modal=True)
    raw = form.array("components", min_items=1, max_items=MAX_TOP_LEVEL) or []
    for index, item in enumerate(raw):
        child = form.item("components", index, item)
        checker.component(child, where="top")
    if not checker.custom_ids and raw and not form.errors:
        form.fail("components", "COMPONENT_INVALID", "A modal needs at least one component the user can fill in.")
    return dict(form.data)


def modal_fields(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The interactive components of a stored (valid) modal, in order."""
    fields: list[dict[str, Any]] = []
    for item in components:
        if item.get("type") == LABEL:
            fields.append(item["component"])
        elif item.get("type") == ACTION_ROW:
            fields.extend(item.get("components") or [])
    return fields


def find_component(components: list[dict[str, Any]], custom_id: str) -> dict[str, Any] | None:
    """The component of a message with ``custom_id`` (searching rows, sections, containers)."""
    for item in components:
        if item.get("custom_id") == custom_id:
            return item
        nested = [*(item.get("components") or []), *([item["accessory"]] if item.get("accessory") else []),
                  *([item["component"]] if item.get("component") else [])]
        found = find_component(nested, custom_id) if nested else None
        if found is not None:
            return found
    return None
