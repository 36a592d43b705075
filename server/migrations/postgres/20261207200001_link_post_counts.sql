-- An application link's counts gain a kind: 'post' (key: the post's id), a post read during a
-- visit through the link (opened from its page, directly or through the writing's index), once
-- a visitor a day.
ALTER TABLE application_link_counts DROP CONSTRAINT application_link_counts_kind_check;
ALTER TABLE application_link_counts ADD CONSTRAINT application_link_counts_kind_check
    CHECK (kind IN ('open', 'visitor', 'section', 'case-study', 'post', 'click', 'resume',
                    'message'));
