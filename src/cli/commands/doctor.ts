export async function doctorCommand(_flags: unknown): Promise<number> { return 0; }
