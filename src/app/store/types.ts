import type { StateCreator } from 'zustand';
import type { ClassroomSlice } from './classroomSlice';
import type { CompareSlice } from './compareSlice';
import type { ImportSlice } from './importSlice';
import type { RoomSlice } from './roomSlice';
import type { RunSlice } from './runSlice';
import type { SeedsSlice } from './seedsSlice';
import type { SpecSlice } from './specSlice';
import type { UiSlice } from './uiSlice';

/** The whole lab store: one store built from slices (zustand's slices pattern). */
export type LabState = SpecSlice & RunSlice & UiSlice & CompareSlice & ImportSlice & ClassroomSlice & SeedsSlice & RoomSlice;

export type LabSlice<T> = StateCreator<LabState, [], [], T>;
