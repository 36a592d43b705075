-- An application link's counts gain a kind: 'case-study' (key: the project's id), a case study
-- opened from the link's page, once a visitor a day.
ALTER TABLE application_link_counts DROP CONSTRAINT application_link_counts_kind_check;
ALTER TABLE application_link_counts ADD CONSTRAINT application_link_counts_kind_check
    CHECK (kind IN ('open', 'visitor', 'section', 'case-study', 'click', 'resume', 'message'));
