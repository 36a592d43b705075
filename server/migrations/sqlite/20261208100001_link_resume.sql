-- An application link's own resume: which sections, projects and jobs its page's resume shows,
-- as JSON (`{"sections": [...], "projects": [...], "jobs": [...]}`); NULL for the page's resume.
ALTER TABLE application_links ADD COLUMN resume TEXT;
