-- The rollups gain the connection dimension (dim 'whatsapp', the event's connection). Rows written
-- before it have none: forgetting the marks makes the reports read the events until the rollup job
-- rewrites every span of each company from its first event, this time with the new dimension.
DELETE FROM report_rollup_marks;
